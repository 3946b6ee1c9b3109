import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { type DocumentNode, execute, GraphQLError, type GraphQLSchema, parse, validate } from 'graphql';
import { LRUCache } from 'lru-cache';

/**
 * An in-process subgraph, like `LocalGraphQLDataSource`, minus its per-request parse and validate.
 *
 * The gateway sends each subgraph the operation text of a cached query plan's fetch node, so the same
 * few strings arrive over and over with different variables, and `LocalGraphQLDataSource` would parse and
 * validate each one again. Here each distinct text is parsed and validated once and the result kept (a
 * bounded LRU cache); variables are still coerced and checked by `execute` on every request, and a text
 * that fails validation keeps failing the same way.
 */
export class CachedLocalDataSource<TContext extends Record<string, unknown>> implements GraphQLDataSource<TContext> {
  private readonly documents: LRUCache<string, DocumentNode | readonly GraphQLError[]>;

  constructor(
    readonly schema: GraphQLSchema,
    maxDocuments = 1000,
  ) {
    this.documents = new LRUCache({ max: maxDocuments });
  }

  async process({ request, context }: GraphQLDataSourceProcessOptions<TContext>) {
    const document = this.document(request.query ?? '');
    if (Array.isArray(document)) return { errors: document as GraphQLError[] };
    return execute({
      schema: this.schema,
      document: document as DocumentNode,
      variableValues: request.variables,
      operationName: request.operationName,
      contextValue: context,
    });
  }

  private document(query: string): DocumentNode | readonly GraphQLError[] {
    const known = this.documents.get(query);
    if (known) return known;
    let result: DocumentNode | readonly GraphQLError[];
    try {
      const parsed = parse(query);
      const errors = validate(this.schema, parsed);
      result = errors.length ? errors : parsed;
    } catch (err) {
      result = [err instanceof GraphQLError ? err : new GraphQLError(String(err))];
    }
    // Plans are cached by the gateway too, so this stays small; the bound only guards against a stream
    // of distinct operations (each costing one parse and validate).
    this.documents.set(query, result);
    return result;
  }
}
