import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import type { GatewayGraphQLRequestContext, GatewaySchemaLoadOrUpdateCallback } from '@apollo/server-gateway-interface';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { creditsPlugin } from '../credits/plugin.js';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../db/unavailable.js';
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
import type { ApolloGatewayHandle, GatewayLoadOptions } from './apollo-gateway.js';
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
  // Operations the gateway would answer with one fetch from an in-process subgraph run compiled, once.
  const remote = Object.keys(options.subgraphUrls ?? {});
  const compiled = new CompiledOperations(supergraph, remote);
  // Apollo Gateway is needed only for operations that are not one in-process fetch, so it is loaded on
  // the first of those: a process serving lookups never loads it and its OpenTelemetry/metrics stack.
  // Apollo Server gets the same API schema the gateway would build, from the same supergraph.
  let gateway: Promise<ApolloGatewayHandle> | undefined;
  let loadOptions: GatewayLoadOptions | undefined;
  const loadGateway = () => {
    gateway ??= import('./apollo-gateway.js').then((m) => m.startApolloGateway(supergraph, options, loadOptions));
    return gateway;
  };
  const viaGateway = async (rc: GatewayGraphQLRequestContext) => (await loadGateway()).executor(rc);
  let schemaListener: GatewaySchemaLoadOrUpdateCallback | undefined;
  const server = new ApolloServer<RequestContext>({
    gateway: {
      load: async (apollo) => {
        loadOptions = apollo;
        schemaListener?.({ apiSchema: compiled.schema, coreSupergraphSdl: supergraph.sdl });
        // Remote subgraphs answer through the gateway alone: load it now, so a bad URL fails the start.
        if (remote.length) await loadGateway();
        return { executor: compiled.wrap(viaGateway) };
      },
      onSchemaLoadOrUpdate: (callback) => {
        schemaListener = callback;
        return () => {
          schemaListener = undefined;
        };
      },
      stop: async () => {
        if (gateway) await (await gateway).stop();
      },
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

/**
 * An error Apollo Server raised itself for a bad request, without a code but with a 4xx status of its
 * own: a persisted query whose sha256Hash does not match its query ("provided sha does not match query",
 * 400), an unsupported persisted-query version. Apollo would code it INTERNAL_SERVER_ERROR; it is the
 * client's, so it keeps Apollo's status and message, with the code BAD_REQUEST, and is not logged as a bug.
 */
const isApolloRefusal = (error: unknown): boolean => {
  if (!(error instanceof GraphQLError) || error.extensions?.code !== undefined) return false;
  const status = (error.extensions?.http as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
};

/** Field errors that are bugs or outages, with their details, for the log (callers see them redacted). */
export function logFailedFields(errors: readonly GraphQLError[], log: RequestContext['log']): void {
  for (const error of errors) {
    const code = error.extensions?.code;
    if (isApolloRefusal(error)) continue;
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
    if (isApolloRefusal(error)) {
      const { message, locations, path } = formatted;
      return {
        message,
        ...(locations ? { locations } : {}),
        ...(path ? { path } : {}),
        extensions: { code: 'BAD_REQUEST' },
      };
    }
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
