import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import type { GatewayGraphQLRequestContext, GatewaySchemaLoadOrUpdateCallback } from '@apollo/server-gateway-interface';
import type { RequestContext } from '../graphql/context.js';
import { graphqlErrorFormatter, graphqlHttpStatusPlugin, logFailedFields } from '../graphql/errors.js';
import {
  type GraphqlLimits,
  knownRootOperationRule,
  limitsValidationRule,
  operationLimitsPlugin,
} from '../graphql/limits.js';
import type { ApolloGatewayHandle, GatewayLoadOptions } from './apollo-gateway.js';
import { CompiledOperations } from './compiled.js';
import { creditsPlugin } from './credits-plugin.js';
import { OperationPipeline } from './pipeline.js';
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
  const formatError = graphqlErrorFormatter(options.explorer);
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
    formatError,
  });
  await server.start();
  const pipeline = new OperationPipeline({ compiled, prices: supergraph.prices, limits: options.limits, formatError });
  return { apollo: server, pipeline };
}

export interface GraphqlServer {
  apollo: ApolloServer<RequestContext>;
  /** Prepares and runs operations for REST and /graphql; Apollo Server answers what it cannot compile. */
  pipeline: OperationPipeline;
}
