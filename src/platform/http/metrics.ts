import { subscribe } from 'node:diagnostics_channel';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import client from 'prom-client';
import { CHARGED_CHANNEL } from '../credits/charging.js';
import type { Charge } from '../credits/ledger.js';
import type { Database } from '../db/orm.js';
import { UPSTREAM_CHANNEL, type UpstreamCall } from '../upstream/observe.js';
import { surfaceOf } from './errors.js';

/**
 * Prometheus metrics of this process. One registry per process, as Prometheus scrapes processes:
 * several apps built in one test process add to the same series.
 */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: 'cipgate_' });

const registers = [registry];
const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const httpRequests = new client.Histogram({
  name: 'cipgate_http_request_duration_seconds',
  help: 'HTTP requests by route (the route pattern, never the raw path), method and status, with their latency',
  labelNames: ['method', 'route', 'status'],
  buckets: latencyBuckets,
  registers,
});

const creditsCharged = new client.Counter({
  name: 'cipgate_credits_charged_total',
  help: 'Credits charged, by operation (root field), once the answer was delivered',
  labelNames: ['operation'],
  registers,
});

const rateLimitRefusals = new client.Counter({
  name: 'cipgate_rate_limit_refusals_total',
  help: 'Requests refused with 429 by the rate limiter, by interface',
  labelNames: ['surface'],
  registers,
});

const upstreamCalls = new client.Histogram({
  name: 'cipgate_upstream_request_duration_seconds',
  help: 'Calls to upstream HTTP APIs by provider and outcome (ok or error), with their latency including retries',
  labelNames: ['provider', 'outcome'],
  buckets: latencyBuckets,
  registers,
});

const upstreamErrors = new client.Counter({
  name: 'cipgate_upstream_errors_total',
  help: 'Failed upstream calls by provider and reason (timeout, network, circuit_open, http_<status>, …)',
  labelNames: ['provider', 'reason'],
  registers,
});

const BREAKER_STATES = ['closed', 'open', 'half-open'] as const;
const breakerState = new client.Gauge({
  name: 'cipgate_upstream_breaker_state',
  help: 'Circuit breaker state per provider as last seen by a call: 1 for the current state, 0 for the others',
  labelNames: ['provider', 'state'],
  registers,
});

const pools = new Set<Database>();
new client.Gauge({
  name: 'cipgate_db_pool_connections',
  help: 'PostgreSQL connection pool: open (total), idle, and callers waiting for a connection',
  labelNames: ['state'],
  registers,
  async collect() {
    let total = 0;
    let idle = 0;
    let waiting = 0;
    for (const db of pools) {
      const pool = await nativePool(db);
      if (!pool) continue;
      total += pool.totalCount;
      idle += pool.idleCount;
      waiting += pool.waitingCount;
    }
    this.set({ state: 'total' }, total);
    this.set({ state: 'idle' }, idle);
    this.set({ state: 'waiting' }, waiting);
  },
});

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

async function nativePool(db: Database): Promise<PgPool | undefined> {
  if (db.dialect !== 'postgresql') return undefined;
  const connection = db.orm.em.getConnection() as unknown as { getNativeClient?: () => Promise<PgPool> };
  return connection.getNativeClient?.();
}

/** Counts the credits of settled charges, as credits/charging.ts publishes them once written. */
subscribe(CHARGED_CHANNEL, (message) => {
  for (const charge of message as Charge[])
    if (charge.credits > 0) creditsCharged.inc({ operation: charge.operation }, charge.credits);
});

subscribe(UPSTREAM_CHANNEL, (message) => {
  const call = message as UpstreamCall;
  upstreamCalls.observe({ provider: call.provider, outcome: call.error ? 'error' : 'ok' }, call.durationMs / 1000);
  if (call.error) upstreamErrors.inc({ provider: call.provider, reason: call.error });
  for (const state of BREAKER_STATES)
    breakerState.set({ provider: call.provider, state }, state === call.breaker ? 1 : 0);
});

/** Serves `/metrics` and times every request. Register early, so refusals by later hooks are counted too. */
export const metricsPlugin = fp(async (app: FastifyInstance, { db }: { db: Database }) => {
  pools.add(db);
  app.addHook('onClose', async () => {
    pools.delete(db);
  });
  app.addHook('onResponse', (request, reply, done) => {
    // Unmatched paths share one label: a scanner must not create a series per path it tries.
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    httpRequests.observe({ method: request.method, route, status }, reply.elapsedTime / 1000);
    if (status === 429) rateLimitRefusals.inc({ surface: surfaceOf(route === 'unmatched' ? request.url : route) });
    done();
  });
  app.get('/metrics', async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
});
