import { ApolloGateway, type GraphQLDataSourceProcessOptions, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { creditsPlugin } from '../credits/plugin.js';
import type { RequestContext } from '../graphql/context.js';
import { CachedLocalDataSource } from './local-data-source.js';
import type { Supergraph } from './supergraph.js';

/**
 * The gateway: an Apollo Gateway over the composed supergraph, calling each subgraph in-process. It holds
 * no business logic; credits are charged here because they are a property of the whole operation.
 */
export async function createGraphqlServer(
  supergraph: Supergraph,
  options: { explorer: boolean; subgraphUrls?: Record<string, string> },
): Promise<ApolloServer<RequestContext>> {
  const schemas = new Map(supergraph.subgraphs.map((s) => [s.name, s.schema]));
  const gateway = new ApolloGateway({
    supergraphSdl: supergraph.sdl,
    buildService: ({ name }) => {
      const url = options.subgraphUrls?.[name];
      if (url) return new ForwardingDataSource({ url });
      const schema = schemas.get(name);
      if (!schema) throw new Error(`supergraph names unknown subgraph ${name}`);
      // Parses and validates each subgraph operation once, not per request (see local-data-source.ts).
      return new CachedLocalDataSource(schema);
    },
  });
  const server = new ApolloServer<RequestContext>({
    gateway,
    introspection: options.explorer,
    includeStacktraceInErrorResponses: false,
    plugins: [
      creditsPlugin(supergraph.prices),
      {
        // formatError hides internal details from callers; the log keeps them.
        async requestDidStart() {
          return {
            async didEncounterErrors({ errors, contextValue }) {
              for (const error of errors) {
                const code = error.extensions?.code;
                if (code === undefined || code === 'INTERNAL_SERVER_ERROR' || code === 'DOWNSTREAM_SERVICE_ERROR') {
                  contextValue.log.error(
                    { err: error.originalError ?? error, path: error.path },
                    'GraphQL field failed',
                  );
                }
              }
            },
          };
        },
      },
      options.explorer
        ? ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false })
        : ApolloServerPluginLandingPageDisabled(),
    ],
    formatError: (formatted) => {
      const code = formatted.extensions?.code;
      // Unexpected failures keep their details in the log, not in the answer.
      if (code === 'INTERNAL_SERVER_ERROR' || code === 'DOWNSTREAM_SERVICE_ERROR' || code === undefined) {
        return { ...formatted, message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
      }
      const { serviceName: _s, exception: _e, ...extensions } = formatted.extensions ?? {};
      return { ...formatted, extensions };
    },
  });
  await server.start();
  return server;
}

/** A subgraph in another process: it sees the caller's key and request id, and authenticates on its own. */
class ForwardingDataSource extends RemoteGraphQLDataSource<RequestContext> {
  override willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<RequestContext>) {
    const headers: Record<string, string> = context.forwardHeaders ?? {};
    for (const [name, value] of Object.entries(headers)) request.http?.headers.set(name, value);
  }
}
