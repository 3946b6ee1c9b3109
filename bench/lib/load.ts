import autocannon, { type Request } from 'autocannon';

/** One load run against one server: what was asked and what came back. */
export interface LoadResult {
  requests: number;
  /** Answers with a 2xx status. */
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  durationS: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
}

export interface LoadOptions {
  url: string;
  requests: Request[];
  connections: number;
  /** Seconds; the run also stops after `amount` requests when that is given. */
  durationS: number;
  amount?: number;
}

/**
 * Drives `url` with autocannon. Latency percentiles are computed from every answer's own timing:
 * autocannon's histogram rounds to whole milliseconds, which hides the difference between a 0.6 ms
 * baseline and a 1.4 ms framework answer.
 */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const samples: number[] = [];
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationS,
    ...(options.amount ? { amount: options.amount } : {}),
    // A request that hangs this long is a failure worth seeing, not a latency sample.
    timeout: 30,
    requests: options.requests,
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) samples.push(responseTime);
  });
  const result = await instance;
  samples.sort((a, b) => a - b);
  const pct = (p: number) =>
    samples.length ? (samples[Math.min(samples.length - 1, Math.floor(p * samples.length))] as number) : 0;
  const ok = result['2xx'];
  const durationS = result.duration;
  return {
    requests: result.requests.total,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    durationS,
    // Only successful answers count: a fast 400 or 500 must never look like throughput.
    rps: durationS > 0 ? ok / durationS : 0,
    p50Ms: pct(0.5),
    p99Ms: pct(0.99),
    meanMs: samples.length ? samples.reduce((s, v) => s + v, 0) / samples.length : 0,
  };
}
