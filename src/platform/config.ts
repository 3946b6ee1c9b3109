import { type BridgeSettings, bridgeSection } from './config/bridge.js';
import { type CreditSettings, creditsSection } from './config/credits.js';
import { type DatabaseSettings, databaseSection } from './config/database.js';
import { type GraphqlSettings, graphqlSection } from './config/graphql.js';
import { type NamingSettings, namingSection } from './config/naming.js';
import { pushSection } from './config/push.js';
import { type RateLimitSettings, rateLimitSection } from './config/rate-limit.js';
import { type ResolutionSettings, resolutionSection } from './config/resolution.js';
import { type ServerSettings, serverSection } from './config/server.js';
import { type SubgraphSettings, subgraphSection } from './config/subgraphs.js';
import { type TelemetrySettings, telemetrySection } from './config/telemetry.js';
import { type UpstreamSettings, upstreamSection } from './config/upstream.js';
import { ConfigError, createReader, type Env } from './config/values.js';

export { ConfigError };

/**
 * Configuration comes only from environment variables, validated once at start-up so that a bad value
 * stops the process with a message naming the variable, instead of surfacing later as a 500.
 * Each area is read by its own section in src/platform/config/; every variable is in docs/configuration.md.
 */
export interface Config
  extends ServerSettings,
    DatabaseSettings,
    TelemetrySettings,
    GraphqlSettings,
    UpstreamSettings,
    ResolutionSettings,
    SubgraphSettings {
  rateLimit: RateLimitSettings;
  credits: CreditSettings;
  /** Identity names' upstreams (ENS, Basenames, SNS) and their local index. */
  naming: NamingSettings;
  bridge: BridgeSettings;
}

/** Reads every section before failing, so one ConfigError names every bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const { read, problems } = createReader(env);
  const config: Config = {
    ...serverSection(read),
    ...databaseSection(read),
    ...telemetrySection(read),
    ...graphqlSection(read),
    rateLimit: rateLimitSection(read),
    credits: creditsSection(read),
    ...upstreamSection(read),
    naming: namingSection(read),
    ...resolutionSection(read),
    ...subgraphSection(read),
    bridge: { ...bridgeSection(read), push: pushSection(read) },
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/**
 * loadConfig for an entry point: a bad setting is explained on stderr and answers undefined, so the
 * process exits 2 with that message rather than a stack trace.
 */
export function loadConfigOrExplain(env: Env = process.env): Config | undefined {
  try {
    return loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return undefined;
  }
}
