import { ApolloGateway, type GraphQLDataSourceProcessOptions, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import type { GraphQLError, GraphQLFormattedError } from 'graphql';
import { creditsPlugin } from '../credits/plugin.js';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../db/unavailable.js';
import { upstreamUnavailable } from '../errors.js';
import { CompiledOperations } from '../graphql/compiled.js';
import type { RequestContext } from '../graphql/context.js';
import { graphqlHttpStatusPlugin, withoutSuggestions } from '../graphql/errors.js';
import {
  formatLimitError,
  type GraphqlLimits,
  knownRootOperationRule,
  limitsValidationRule,
  operationLimitsPlugin,
} from '../graphql/limits.js';
import { CachedLocalDataSource } from './local-data-source.js';
import { GATEWAY_TOKEN_HEADER, signGatewayToken } from './subgraph-token.js';
import type { Supergraph } from './supergraph.js';

/**
 * The gateway: an Apollo Gateway over the composed supergraph, calling each subgraph in-process. It holds
 * no business logic; credits are charged here because they are a property of the whole operation.
 */
export async function createGraphqlServer(
  supergraph: Supergraph,
  options: {
    explorer: boolean;
    subgraphUrls?: Record<string, string>;
    /** Signs the gateway token every remote subgraph requires; config makes it present with subgraphUrls. */
    subgraphSecret?: string;
    subgraphTimeoutMs?: number;
    limits: GraphqlLimits;
  },
): Promise<GraphqlServer> {
  const schemas = new Map(supergraph.subgraphs.map((s) => [s.name, s.schema]));
  const gateway = new ApolloGateway({
    supergraphSdl: supergraph.sdl,
    buildService: ({ name }) => {
      const url = options.subgraphUrls?.[name];
      if (url) {
        if (!options.subgraphSecret) throw new Error(`remote subgraph ${name} needs SUBGRAPH_SECRET`);
        return new ForwardingDataSource(name, url, options.subgraphSecret, options.subgraphTimeoutMs ?? 5000);
      }
      const schema = schemas.get(name);
      if (!schema) throw new Error(`supergraph names unknown subgraph ${name}`);
      // Parses and validates each subgraph operation once, not per request (see local-data-source.ts).
      return new CachedLocalDataSource(schema);
    },
  });
  // Operations the gateway would answer with one fetch from an in-process subgraph run compiled, once.
  const compiled = new CompiledOperations(supergraph, Object.keys(options.subgraphUrls ?? {}));
  const server = new ApolloServer<RequestContext>({
    gateway: {
      load: async (loadOptions) => {
        const { executor } = await gateway.load(loadOptions);
        return { executor: executor && compiled.wrap(executor) };
      },
      onSchemaLoadOrUpdate: (callback) => gateway.onSchemaLoadOrUpdate(callback),
      stop: () => gateway.stop(),
    },
    introspection: options.explorer,
    // Without the explorer the schema is not public: no "Did you mean …" in errors either.
    hideSchemaDetailsFromClientErrors: !options.explorer,
    includeStacktraceInErrorResponses: false,
    // main.ts owns shutdown and stops this server itself. Apollo's own SIGTERM handler would start a
    // second, concurrent stop(), and a stop() that waits on another never returns (Apollo Server 5
    // never resolves that wait on success): the process then hung until the fallback timer.
    stopOnTerminationSignals: false,
    // The token limit stops the parser itself, so an oversized document is never fully parsed.
    parseOptions: { maxTokens: options.limits.maxTokens },
    validationRules: [knownRootOperationRule, limitsValidationRule(options.limits)],
    plugins: [
      graphqlHttpStatusPlugin(),
      creditsPlugin(supergraph.prices),
      operationLimitsPlugin(options.limits),
      {
        // formatError hides internal details from callers; the log keeps them.
        async requestDidStart() {
          return {
            async didEncounterErrors({ errors, contextValue }) {
              logFailedFields(errors, contextValue.log);
            },
          };
        },
      },
      options.explorer
        ? ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false })
        : ApolloServerPluginLandingPageDisabled(),
    ],
    formatError: graphqlErrorFormatter(options.explorer),
  });
  await server.start();
  return { apollo: server, compiled, formatError: graphqlErrorFormatter(options.explorer) };
}

export interface GraphqlServer {
  apollo: ApolloServer<RequestContext>;
  /** Single-fetch operations compiled once; REST routes run theirs without Apollo's pipeline. */
  compiled: CompiledOperations;
  /** What a caller sees of an error (the same function Apollo Server applies). */
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
}

/** Field errors that are bugs or outages, with their details, for the log (callers see them redacted). */
export function logFailedFields(errors: readonly GraphQLError[], log: RequestContext['log']): void {
  for (const error of errors) {
    const code = error.extensions?.code;
    if (code === undefined || code === 'INTERNAL_SERVER_ERROR' || code === 'DOWNSTREAM_SERVICE_ERROR') {
      log.error({ err: error.originalError ?? error, path: error.path }, 'GraphQL field failed');
    }
  }
}

/** Apollo Server's `formatError`: hides internal details from callers; the log keeps them. */
function graphqlErrorFormatter(explorer: boolean) {
  return (unformatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    // hideSchemaDetailsFromClientErrors covers validation errors only; variable coercion suggests too.
    const formatted = explorer ? unformatted : withoutSuggestions(unformatted);
    const limited = formatLimitError(formatted);
    if (limited) return limited;
    const code = formatted.extensions?.code;
    // Unexpected failures keep their details in the log, not in the answer.
    if (code === 'INTERNAL_SERVER_ERROR' || code === 'DOWNSTREAM_SERVICE_ERROR' || code === undefined) {
      // A database that cannot answer now is a temporary outage (503, retry), not a bug.
      if (isDatabaseUnavailable(error)) {
        const { message: _m, extensions: _x, ...rest } = formatted;
        return { ...rest, message: DATABASE_UNAVAILABLE_MESSAGE, extensions: { code: 'UPSTREAM_UNAVAILABLE' } };
      }
      return { ...formatted, message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
    }
    const { serviceName: _s, exception: _e, ...extensions } = formatted.extensions ?? {};
    return { ...formatted, extensions };
  };
}

/**
 * A subgraph in another process. It learns the caller from a token signed for this one fetch, never from
 * the caller's key, and one that cannot answer now is an unavailable upstream (a free 503), not a bug.
 */
class ForwardingDataSource extends RemoteGraphQLDataSource<RequestContext> {
  constructor(
    private readonly subgraph: string,
    url: string,
    private readonly secret: string,
    timeoutMs: number,
  ) {
    // A stalled subgraph must not hold the caller's request open.
    const fetcher: RemoteGraphQLDataSource['fetcher'] = (target, init) =>
      // The gateway's fetcher type allows a Buffer body, which the DOM RequestInit type does not name.
      fetch(target, { ...init, signal: AbortSignal.timeout(timeoutMs) } as RequestInit);
    super({ url, fetcher });
  }

  override willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<RequestContext>) {
    const headers = request.http?.headers;
    if (!headers) return;
    const forward: Record<string, string> = context.forwardHeaders ?? {};
    for (const [name, value] of Object.entries(forward)) headers.set(name, value);
    const token = signGatewayToken(this.secret, {
      partnerId: context.partner?.id ?? null,
      keyId: context.partner?.keyId ?? null,
      requestId: String(context.requestId),
    });
    headers.set(GATEWAY_TOKEN_HEADER, token);
  }

  override didEncounterError(
    error: Error,
    _request: unknown,
    response?: Parameters<RemoteGraphQLDataSource['didEncounterError']>[2],
    context?: RequestContext,
  ): never {
    // No answer (refused, reset, timed out), our token refused (secrets differ) or a proxy's 5xx.
    const unavailable = !response || response.status === 401 || response.status >= 500 || error.name === 'TimeoutError';
    if (!unavailable) throw error;
    context?.log.warn({ err: error, subgraph: this.subgraph, status: response?.status }, 'remote subgraph unavailable');
    throw upstreamUnavailable('A backing service is unavailable; try again shortly');
  }
}
