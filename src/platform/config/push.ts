import type { Reader } from './values.js';

/** Bridge status pushed to partners (webhooks, graphql-ws subscriptions), and the caps that keep it fair. */
export interface PushSettings {
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
}

export function pushSection(read: Reader): PushSettings {
  return {
    followIntervalMs: read.int('BRIDGE_FOLLOW_INTERVAL_MS', 15_000, 50, 3_600_000),
    retryBaseMs: read.int('WEBHOOK_RETRY_BASE_MS', 5_000, 10, 3_600_000),
    timeoutMs: read.int('WEBHOOK_TIMEOUT_MS', 5_000, 100, 60_000),
    allowHttpLoopback: read.bool('WEBHOOK_ALLOW_HTTP_LOOPBACK', false),
    maxSubscriptions: read.int('BRIDGE_MAX_SUBSCRIPTIONS', 100, 1, 100_000),
    maxFollows: read.int('BRIDGE_MAX_FOLLOWS', 500, 1, 1_000_000),
    followRetentionHours: read.int('BRIDGE_FOLLOW_RETENTION_HOURS', 168, 24, 87_600),
    maxDeliveriesInFlight: read.int('WEBHOOK_MAX_IN_FLIGHT', 64, 1, 10_000),
  };
}
