import { bridgeProviderStates } from './features/bridge/provider-states.js';
import { namingProviderStates } from './features/identity/provider-states.js';
import type { Config } from './platform/config.js';
import type { Services } from './services.js';

/** Where the data lives, without the credentials a database URL may carry. */
function databaseOf(url: string): string {
  if (url.startsWith('file:')) return `sqlite ${url.slice('file:'.length)}`;
  const u = new URL(url);
  return `postgresql ${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
}

/**
 * The one line an operator reads at start-up: which database, which providers serve and why the others
 * do not, and which optional parts (Redis, metrics, tracing, remote subgraphs) are on.
 */
export function startupSummary(config: Config, services: Services): Record<string, unknown> {
  return {
    database: databaseOf(config.databaseUrl),
    redis: config.redisUrl ? 'configured' : 'none: rate limits are per process',
    naming: namingProviderStates(services.naming),
    bridge: bridgeProviderStates(services.bridge),
    remoteSubgraphs: Object.keys(config.subgraphUrls),
    metrics: config.metricsEnabled ? '/metrics' : 'off',
    tracing: config.otelEndpoint ? 'OTLP' : 'off',
    sandboxSeed: config.sandboxSeed,
  };
}
