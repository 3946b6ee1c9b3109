import { ApolloGateway, type GraphQLDataSourceProcessOptions, RemoteGraphQLDataSource } from '@apollo/gateway';
import type {
  GatewayExecutor,
  GatewayGraphQLRequestContext,
  GatewayLoadResult,
} from '@apollo/server-gateway-interface';
import { upstreamUnavailable } from '../errors.js';
import type { RequestContext } from '../graphql/context.js';
import { CachedLocalDataSource } from './local-data-source.js';
import { GATEWAY_TOKEN_HEADER, signGatewayToken } from './subgraph-token.js';
import type { Supergraph } from './supergraph.js';

export type GatewayLoadOptions = Parameters<ApolloGateway['load']>[0];

export interface ApolloGatewayHandle {
  executor: GatewayExecutor;
  stop(): Promise<void>;
}

/**
 * Apollo Gateway over the supergraph, each subgraph in-process or, with SUBGRAPH_URLS, in another
 * process. Loaded by server.ts only when an operation needs more than one in-process fetch.
 */
export async function startApolloGateway(
  supergraph: Supergraph,
  options: { subgraphUrls?: Record<string, string>; subgraphSecret?: string; subgraphTimeoutMs?: number },
  loadOptions: GatewayLoadOptions | undefined,
): Promise<ApolloGatewayHandle> {
  // Apollo Gateway otherwise reports usage metrics to Apollo and probes cloud metadata addresses
  // (169.254.169.254 …) at construction: a self-hosted service calls nothing its operator did not configure.
  process.env.APOLLO_TELEMETRY_DISABLED ??= 'true';
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
  const loaded: GatewayLoadResult = await gateway.load(loadOptions);
  const executor = loaded.executor;
  if (!executor) throw new Error('Apollo Gateway loaded without an executor');
  return {
    executor: (rc: GatewayGraphQLRequestContext) => executor(rc),
    stop: () => gateway.stop(),
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
