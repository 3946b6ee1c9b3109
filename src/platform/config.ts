import { isIP } from 'node:net';

/**
 * Configuration comes only from environment variables, validated once at start-up so that a bad value
 * stops the process with a message naming the variable, instead of surfacing later as a 500.
 * Every variable is documented in README.md.
 */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** A read replica for public lookups and search; writes and the ledger always use DATABASE_URL. */
  databaseReadUrl: string | undefined;
  /** Bounds on every wait for the database, so a dead or stalled one gives fast 503s (src/db/orm.ts). */
  database: { poolMax: number; acquireTimeoutMs: number; statementTimeoutMs: number };
  redisUrl: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Prometheus metrics at /metrics. */
  metricsEnabled: boolean;
  /** OpenTelemetry traces are exported over OTLP/HTTP when set (the SDK is loaded only then). */
  otelEndpoint: string | undefined;
  /** Introspection and the Apollo Sandbox landing page on /graphql. */
  graphqlExplorer: boolean;
  /** Bounds on one GraphQL operation's work, checked before it is planned (src/graphql/limits.ts). */
  graphqlLimits: {
    maxTokens: number;
    maxDepth: number;
    maxAliases: number;
    maxRootFields: number;
    maxCost: number;
    /** Elements assumed for a list field whose size no argument tells. */
    costListSize: number;
  };
  bodyLimitBytes: number;
  /** Browser-facing HTTP (src/platform/http/cors.ts, caching.ts). */
  http: {
    /** Origins allowed to call partner paths and /graphql from a browser (`*` = any); public paths allow any. */
    corsOrigins: string[];
    /** `max-age` of cacheable answers: public lookups, catalogue answers, free GraphQL GET answers. */
    cacheMaxAgeSeconds: number;
    /**
     * The server's limits on clients (src/platform/http/server-options.ts): a request (headers and body)
     * must arrive within `requestTimeoutMs`, its headers within `headersTimeoutMs`; an idle keep-alive
     * connection is closed after `keepAliveTimeoutMs` (longer than a proxy's own idle timeout), any
     * connection silent both ways for `idleTimeoutMs` (0 = never); at most `maxConnections` are open at
     * once (0 = no cap). A handler's own time and WebSockets are not limited by these.
     */
    requestTimeoutMs: number;
    headersTimeoutMs: number;
    keepAliveTimeoutMs: number;
    idleTimeoutMs: number;
    maxConnections: number;
  };
  rateLimit: { windowMs: number; partnerMax: number; publicMax: number; failedAuthMax: number };
  /** Fastify's `trustProxy`: which hops' `X-Forwarded-For` to believe for the client address. */
  trustProxy: false | number | string[];
  /**
   * `ledgerRetentionDays`: raw ledger rows older than this are rolled up into `ledger_daily` (0 = kept).
   * `lease`: how a busy partner's credits are leased in blocks and its charges written in batches
   * (src/platform/credits/ledger.ts); `maxCredits` 0 charges every call in its own transactions.
   */
  credits: {
    reservationTtlMs: number;
    ledgerRetentionDays: number;
    lease: { maxCredits: number; flushMs: number };
  };
  /** Create a labelled sandbox partner (and demo names) on first start. */
  sandboxSeed: boolean;
  providerTimeoutMs: number;
  /** Longest upstream answer body read (HTTP APIs and JSON-RPC); a longer answer fails that upstream call. */
  upstreamMaxBodyBytes: number;
  /** Subgraphs served by other processes (name → GraphQL URL); the rest run in this process. */
  subgraphUrls: Record<string, string>;
  /** Shared by the gateway and subgraph processes to sign and check gateway tokens (src/gateway/subgraph-token.ts). */
  subgraphSecret: string | undefined;
  /** Where `npm run subgraph` listens: loopback unless told otherwise, since only the gateway should call it. */
  subgraphHost: string;
  subgraphPort: number;
  /** Longest the gateway waits for one remote subgraph fetch. */
  subgraphTimeoutMs: number;
  /** Enables POST /router/coprocessor for Apollo Router; the Router's coprocessor URL carries it as ?secret=. */
  routerCoprocessorSecret: string | undefined;
  naming: {
    ensRpcUrl: string | undefined;
    ensRegistryAddress: string | undefined;
    ensBaseRegistrarAddress: string | undefined;
    baseRpcUrl: string | undefined;
    basenamesRegistryAddress: string | undefined;
    /** `.base.eth` base registrar, for expiries; defaults to Base mainnet's only with the mainnet registry. */
    basenamesBaseRegistrarAddress: string | undefined;
    solanaRpcUrl: string | undefined;
    /** How long names resolved from other providers stay in the local search index. */
    indexTtlSeconds: number;
  };
  /** MNS read from Movement fullnodes (src/features/resolution/sources/chain, indexer/). */
  mnsChain: {
    /** Fullnode REST base URL (…/v1) per Movement network reference (126, 177, 250). */
    rpcUrls: Record<string, string>;
    moduleAddress: string | undefined;
    /** View functions, as `module::function` under `moduleAddress`. */
    functions: { target: string; owner: string; expiration: string; primary: string };
    indexer: { inServer: boolean; intervalMs: number; pageSize: number; startVersion: string };
  };
  /** Where `.snow` names come from besides the local registry (src/features/resolution/sources). */
  mns: {
    upstream: {
      /** Base of an upstream MNS public API (…/api/public); unset means no upstream source. */
      url: string | undefined;
      cacheTtlSeconds: number;
      cacheMaxEntries: number;
    };
  };
  bridge: {
    lifi: { enabled: boolean; baseUrl: string | undefined; apiKey: string | undefined };
    across: {
      enabled: boolean;
      baseUrl: string | undefined;
      /** Sent as `Authorization: Bearer` (ACROSS_API_KEY). */
      apiKey: string | undefined;
      /** 2-byte hex id, sent as `integratorId` (ACROSS_INTEGRATOR_ID). */
      integratorId: string | undefined;
    };
    /** Integrator name and fee fraction passed to upstreams that take them (LI.FI). */
    integrator: string | undefined;
    fee: number | undefined;
    /** How long a quoted route may be executed (BRIDGE_QUOTE_TTL_SECONDS). */
    quoteTtlSeconds: number;
    /** RPC URL per CAIP-2 chain, for checking source transactions on chain. */
    rpcUrls: Record<string, string>;
    catalogueTtlSeconds: number;
    /** Status pushed to partners (webhooks, graphql-ws subscriptions). */
    push: {
      /** First interval between looks at a followed transfer; it doubles up to 5 minutes. */
      followIntervalMs: number;
      /** First delay before retrying a failed webhook delivery; it doubles up to an hour, for 24 hours. */
      retryBaseMs: number;
      /** How long one webhook delivery may take. */
      timeoutMs: number;
      /** Tests only: accept http:// webhook targets on loopback addresses. */
      allowHttpLoopback: boolean;
      /** Open `bridgeStatusChanged` subscriptions one partner may have at once, across every process. */
      maxSubscriptions: number;
      /** Transfers followed at once for one partner (for its subscriptions and webhooks), across every process. */
      maxFollows: number;
      /** Finished or abandoned follows, and finished deliveries, are deleted this long after they began. */
      followRetentionHours: number;
      /** Webhook deliveries one process has in flight at once; each webhook has at most one. */
      maxDeliveriesInFlight: number;
    };
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

/** What proxy-addr (behind Fastify's `trustProxy`) accepts: an address, a CIDR, or a named range. */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const str = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === '' ? undefined : v;
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = str(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return n;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = str(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name} must be true or false, got "${raw}"`);
    return fallback;
  };
  const url = (name: string, protocols: string[]): string | undefined => {
    const raw = str(name);
    if (raw === undefined) return undefined;
    try {
      const u = new URL(raw);
      if (!protocols.includes(u.protocol)) throw new Error();
      return raw;
    } catch {
      problems.push(`${name} must be a URL (${protocols.join(' or ')}), got "${raw}"`);
      return undefined;
    }
  };
  const address = (name: string): string | undefined => {
    const raw = str(name);
    if (raw !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(raw)) {
      problems.push(`${name} must be a 0x-prefixed 20-byte hex address, got "${raw}"`);
      return undefined;
    }
    return raw;
  };

  const databaseUrl = str('DATABASE_URL') ?? 'file:./data/cipgate.db';
  if (!/^postgres(ql)?:\/\/.+/.test(databaseUrl) && !/^file:.+/.test(databaseUrl)) {
    problems.push(`DATABASE_URL must be postgres://… or file:<path>, got "${databaseUrl}"`);
  }
  const embedded = databaseUrl.startsWith('file:');
  const databaseReadUrl = str('DATABASE_READ_URL');
  if (databaseReadUrl !== undefined && (!/^postgres(ql)?:\/\/.+/.test(databaseReadUrl) || embedded)) {
    problems.push('DATABASE_READ_URL must be a postgres://… replica of a PostgreSQL DATABASE_URL');
  }

  const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
  const logLevel = (str('LOG_LEVEL') ?? 'info') as Config['logLevel'];
  if (!logLevels.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${logLevels.join(', ')}`);

  const rpcUrls: Record<string, string> = {};
  const rawRpc = str('EVM_RPC_URLS');
  if (rawRpc) {
    for (const pair of rawRpc.split(',')) {
      const at = pair.lastIndexOf('=');
      const chain = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (at < 0 || !/^eip155:\d+$/.test(chain) || !/^https?:\/\//.test(value)) {
        problems.push(`EVM_RPC_URLS must be a comma-separated list of eip155:<id>=<http url>, got "${pair}"`);
      } else rpcUrls[chain] = value;
    }
  }

  const subgraphUrls: Record<string, string> = {};
  for (const pair of (str('SUBGRAPH_URLS') ?? '').split(',').filter((p) => p.trim())) {
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if (at < 0 || !/^[a-z][a-z0-9-]*$/.test(name) || !/^https?:\/\//.test(value)) {
      problems.push(`SUBGRAPH_URLS must be a comma-separated list of <subgraph>=<http url>, got "${pair}"`);
    } else subgraphUrls[name] = value;
  }
  const subgraphSecret = str('SUBGRAPH_SECRET');
  if (subgraphSecret !== undefined && subgraphSecret.length < 32) {
    problems.push('SUBGRAPH_SECRET must be at least 32 characters');
  } else if (subgraphSecret === undefined && Object.keys(subgraphUrls).length) {
    problems.push('SUBGRAPH_SECRET is required when SUBGRAPH_URLS is set');
  }
  const routerCoprocessorSecret = str('ROUTER_COPROCESSOR_SECRET');
  if (routerCoprocessorSecret !== undefined && !/^[A-Za-z0-9._~-]{32,}$/.test(routerCoprocessorSecret)) {
    problems.push('ROUTER_COPROCESSOR_SECRET must be at least 32 URL-safe characters (letters, digits, . _ ~ -)');
  } else if (routerCoprocessorSecret !== undefined && subgraphSecret === undefined) {
    problems.push(
      'SUBGRAPH_SECRET is required when ROUTER_COPROCESSOR_SECRET is set (the coprocessor signs subgraph calls)',
    );
  }

  const trustProxy = ((): Config['trustProxy'] => {
    const raw = str('TRUST_PROXY');
    if (raw === undefined || ['false', 'off', 'no', '0'].includes(raw.toLowerCase())) return false;
    if (/^\d+$/.test(raw)) return int('TRUST_PROXY', 0, 1, 32);
    const entries = raw.split(',').map((entry) => entry.trim());
    const bad = entries.find((entry) => !isProxyAddress(entry));
    if (bad === undefined) return entries;
    problems.push(
      `TRUST_PROXY must be false, a hop count, or a comma-separated list of proxy addresses/CIDRs, got "${bad}"`,
    );
    return false;
  })();

  // An origin is exactly scheme://host[:port], as browsers send it in the Origin header.
  const corsOrigins = (str('CORS_ORIGINS') ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (origin === '*') continue;
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {}
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
      problems.push(
        `CORS_ORIGINS must be * or a comma-separated list of origins like https://app.example.com, got "${origin}"`,
      );
    }
  }

  const movementRpcUrls: Record<string, string> = {};
  for (const network of ['126', '177', '250']) {
    const value = url(`MOVEMENT_RPC_URL_${network}`, ['http:', 'https:']);
    if (value) movementRpcUrls[network] = value;
  }
  const mnsModuleAddress = str('MNS_MODULE_ADDRESS');
  if (mnsModuleAddress !== undefined && !/^0x[0-9a-fA-F]{1,64}$/.test(mnsModuleAddress)) {
    problems.push(
      `MNS_MODULE_ADDRESS must be a Movement address (0x and 1 to 64 hex digits), got "${mnsModuleAddress}"`,
    );
  }
  if (Object.keys(movementRpcUrls).length && mnsModuleAddress === undefined) {
    problems.push('MNS_MODULE_ADDRESS is required when a MOVEMENT_RPC_URL_<network> is set');
  }
  // Defaults are the Aptos Names router's view functions, which the MNS module derives from.
  const mnsFunctions = {
    target: 'router::get_target_addr',
    owner: 'router::get_owner_addr',
    expiration: 'router::get_expiration',
    primary: 'router::get_primary_name',
  };
  for (const pair of (str('MNS_VIEW_FUNCTIONS') ?? '').split(',').filter((p) => p.trim())) {
    const [key = '', fn = ''] = pair.split('=').map((part) => part.trim());
    if (!(key in mnsFunctions) || !/^[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*$/.test(fn)) {
      problems.push(
        `MNS_VIEW_FUNCTIONS must be a comma-separated list of <target|owner|expiration|primary>=<module>::<function>, got "${pair}"`,
      );
    } else mnsFunctions[key as keyof typeof mnsFunctions] = fn;
  }
  if (bool('MNS_INDEXER', false) && !Object.keys(movementRpcUrls).length) {
    problems.push('MNS_INDEXER needs at least one MOVEMENT_RPC_URL_<network> to read from');
  }
  const mnsStartVersion = str('MNS_INDEXER_START_VERSION') ?? '0';
  if (!/^\d{1,20}$/.test(mnsStartVersion)) {
    problems.push(`MNS_INDEXER_START_VERSION must be a ledger version (a whole number), got "${mnsStartVersion}"`);
  }

  const lifiUrl = url('LIFI_API_URL', ['http:', 'https:']);
  const acrossUrl = url('ACROSS_API_URL', ['http:', 'https:']);
  const acrossIntegratorId = str('ACROSS_INTEGRATOR_ID');
  if (acrossIntegratorId !== undefined && !/^0x[0-9a-fA-F]{4}$/.test(acrossIntegratorId)) {
    problems.push(`ACROSS_INTEGRATOR_ID must be a 2-byte hex id such as 0x00ab, got "${acrossIntegratorId}"`);
  }
  const bridgeIntegrator = str('BRIDGE_INTEGRATOR');
  if (bridgeIntegrator !== undefined && !/^[A-Za-z0-9._-]{1,23}$/.test(bridgeIntegrator)) {
    problems.push(`BRIDGE_INTEGRATOR must be 1 to 23 letters, digits, ".", "_" or "-", got "${bridgeIntegrator}"`);
  }
  const bridgeFeeText = str('BRIDGE_FEE');
  const bridgeFee = bridgeFeeText === undefined ? undefined : Number(bridgeFeeText);
  if (bridgeFee !== undefined && !(/^\d*\.?\d+$/.test(bridgeFeeText ?? '') && bridgeFee >= 0 && bridgeFee < 0.1)) {
    problems.push(`BRIDGE_FEE must be a fraction from 0 to below 0.1 (0.003 is 0.3%), got "${bridgeFeeText}"`);
  }
  if (bridgeFee !== undefined && bridgeFee > 0 && bridgeIntegrator === undefined) {
    problems.push('BRIDGE_FEE needs BRIDGE_INTEGRATOR: upstreams credit fees to an integrator');
  }
  // A slow client (a body trickling in a byte at a time) holds a connection only this long; node:http
  // requires the headers' limit to be within the whole request's.
  const requestTimeoutMs = int('HTTP_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000);
  const headersTimeoutMs = int('HTTP_HEADERS_TIMEOUT_MS', Math.min(10_000, requestTimeoutMs), 100, 3_600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    problems.push(
      `HTTP_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
    );
  }
  const config: Config = {
    port: int('PORT', 4000, 0, 65535),
    host: str('HOST') ?? '0.0.0.0',
    databaseUrl,
    databaseReadUrl,
    database: {
      poolMax: int('DATABASE_POOL_MAX', 10, 1, 1000),
      acquireTimeoutMs: int('DATABASE_ACQUIRE_TIMEOUT_MS', 800, 50, 600_000),
      statementTimeoutMs: int('DATABASE_STATEMENT_TIMEOUT_MS', 1000, 50, 3_600_000),
    },
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    logLevel,
    metricsEnabled: bool('METRICS_ENABLED', true),
    otelEndpoint: url('OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']),
    graphqlExplorer: bool('GRAPHQL_EXPLORER', true),
    graphqlLimits: {
      maxTokens: int('GRAPHQL_MAX_TOKENS', 5000, 100, 1_000_000),
      maxDepth: int('GRAPHQL_MAX_DEPTH', 24, 2, 1000),
      maxAliases: int('GRAPHQL_MAX_ALIASES', 50, 0, 100_000),
      maxRootFields: int('GRAPHQL_MAX_ROOT_FIELDS', 20, 1, 100_000),
      maxCost: int('GRAPHQL_MAX_COST', 10_000, 1, 100_000_000),
      costListSize: int('GRAPHQL_COST_LIST_SIZE', 10, 1, 100_000),
    },
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 1_048_576, 1024, 100 * 1_048_576),
    http: {
      corsOrigins,
      cacheMaxAgeSeconds: int('HTTP_CACHE_MAX_AGE_SECONDS', 60, 0, 86_400),
      requestTimeoutMs,
      headersTimeoutMs,
      // Above the 60 s idle timeout of nginx and AWS load balancers, so the proxy, not this server, closes
      // an idle connection (a server closing one as the proxy reuses it fails that request with a 502).
      keepAliveTimeoutMs: int('HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, 1000, 3_600_000),
      idleTimeoutMs: int('HTTP_IDLE_TIMEOUT_MS', 120_000, 0, 3_600_000),
      maxConnections: int('HTTP_MAX_CONNECTIONS', 10_000, 0, 1_000_000),
    },
    rateLimit: {
      windowMs: int('RATE_LIMIT_WINDOW_MS', 60_000, 1000, 86_400_000),
      partnerMax: int('RATE_LIMIT_PARTNER_MAX', 600, 1, 10_000_000),
      publicMax: int('RATE_LIMIT_PUBLIC_MAX', 1200, 1, 10_000_000),
      failedAuthMax: int('RATE_LIMIT_FAILED_AUTH_MAX', 20, 1, 10_000_000),
    },
    trustProxy,
    credits: {
      reservationTtlMs: int('CREDIT_RESERVATION_TTL_MS', 120_000, 1000, 3_600_000),
      ledgerRetentionDays: int('LEDGER_RETENTION_DAYS', 0, 0, 36_500),
      lease: {
        maxCredits: int('CREDIT_LEASE_MAX_CREDITS', 1000, 0, 1_000_000),
        // Other processes see a charge within this; the issue's bound is one second.
        flushMs: int('CREDIT_LEASE_FLUSH_MS', 500, 10, 1000),
      },
    },
    sandboxSeed: bool('SANDBOX_SEED', embedded),
    providerTimeoutMs: int('PROVIDER_TIMEOUT_MS', 4000, 50, 120_000),
    upstreamMaxBodyBytes: int('UPSTREAM_MAX_BODY_BYTES', 5 * 1_048_576, 1024, 1024 * 1_048_576),
    subgraphUrls,
    subgraphSecret,
    subgraphHost: str('SUBGRAPH_HOST') ?? '127.0.0.1',
    subgraphPort: int('SUBGRAPH_PORT', 4001, 0, 65535),
    subgraphTimeoutMs: int('SUBGRAPH_TIMEOUT_MS', 5000, 100, 60_000),
    routerCoprocessorSecret,
    naming: {
      ensRpcUrl: url('ENS_RPC_URL', ['http:', 'https:']),
      ensRegistryAddress: address('ENS_REGISTRY_ADDRESS'),
      ensBaseRegistrarAddress: address('ENS_BASE_REGISTRAR_ADDRESS'),
      baseRpcUrl: url('BASE_RPC_URL', ['http:', 'https:']),
      basenamesRegistryAddress: address('BASENAMES_REGISTRY_ADDRESS'),
      basenamesBaseRegistrarAddress: address('BASENAMES_BASE_REGISTRAR_ADDRESS'),
      solanaRpcUrl: url('SOLANA_RPC_URL', ['http:', 'https:']),
      indexTtlSeconds: int('NAME_INDEX_TTL_SECONDS', 3600, 1, 30 * 86_400),
    },
    mnsChain: {
      rpcUrls: movementRpcUrls,
      moduleAddress: mnsModuleAddress,
      functions: mnsFunctions,
      indexer: {
        inServer: bool('MNS_INDEXER', false),
        intervalMs: int('MNS_INDEXER_INTERVAL_MS', 5000, 100, 3_600_000),
        // The Aptos REST API serves at most 100 transactions a page.
        pageSize: int('MNS_INDEXER_PAGE_SIZE', 100, 1, 100),
        startVersion: mnsStartVersion,
      },
    },
    mns: {
      upstream: {
        url: url('MNS_UPSTREAM_URL', ['http:', 'https:']),
        cacheTtlSeconds: int('MNS_UPSTREAM_CACHE_TTL_SECONDS', 60, 0, 86_400),
        cacheMaxEntries: int('MNS_UPSTREAM_CACHE_MAX_ENTRIES', 10_000, 0, 10_000_000),
      },
    },
    bridge: {
      lifi: { enabled: bool('LIFI_ENABLED', lifiUrl !== undefined), baseUrl: lifiUrl, apiKey: str('LIFI_API_KEY') },
      across: {
        enabled: bool('ACROSS_ENABLED', acrossUrl !== undefined),
        baseUrl: acrossUrl,
        apiKey: str('ACROSS_API_KEY'),
        integratorId: acrossIntegratorId,
      },
      integrator: bridgeIntegrator,
      fee: bridgeFee,
      quoteTtlSeconds: int('BRIDGE_QUOTE_TTL_SECONDS', 600, 30, 3600),
      rpcUrls,
      catalogueTtlSeconds: int('BRIDGE_CATALOGUE_TTL_SECONDS', 3600, 1, 30 * 86_400),
      push: {
        followIntervalMs: int('BRIDGE_FOLLOW_INTERVAL_MS', 15_000, 50, 3_600_000),
        retryBaseMs: int('WEBHOOK_RETRY_BASE_MS', 5_000, 10, 3_600_000),
        timeoutMs: int('WEBHOOK_TIMEOUT_MS', 5_000, 100, 60_000),
        allowHttpLoopback: bool('WEBHOOK_ALLOW_HTTP_LOOPBACK', false),
        maxSubscriptions: int('BRIDGE_MAX_SUBSCRIPTIONS', 100, 1, 100_000),
        maxFollows: int('BRIDGE_MAX_FOLLOWS', 500, 1, 1_000_000),
        followRetentionHours: int('BRIDGE_FOLLOW_RETENTION_HOURS', 168, 24, 87_600),
        maxDeliveriesInFlight: int('WEBHOOK_MAX_IN_FLIGHT', 64, 1, 10_000),
      },
    },
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
