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

/** One run's result with the timing of each successful answer, so runs can be combined. */
export interface TimedLoad {
  result: LoadResult;
  samples: number[];
}

/**
 * Drives `url` with autocannon. Latency percentiles are computed from every answer's own timing:
 * autocannon's histogram rounds to whole milliseconds, which hides the difference between a 0.6 ms
 * baseline and a 1.4 ms framework answer.
 */
export async function load(options: LoadOptions): Promise<LoadResult> {
  return (await timedLoad(options)).result;
}

export async function timedLoad(options: LoadOptions): Promise<TimedLoad> {
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
  return {
    samples,
    result: summary(samples, {
      requests: result.requests.total,
      ok: result['2xx'],
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      durationS: result.duration,
    }),
  };
}

/** Several runs against one server as one: counts and durations added, percentiles over all answers. */
export function combine(runs: readonly TimedLoad[]): LoadResult {
  const sum = (f: (r: LoadResult) => number) => runs.reduce((s, r) => s + f(r.result), 0);
  return summary(
    runs.flatMap((r) => r.samples),
    {
      requests: sum((r) => r.requests),
      ok: sum((r) => r.ok),
      non2xx: sum((r) => r.non2xx),
      errors: sum((r) => r.errors),
      timeouts: sum((r) => r.timeouts),
      durationS: sum((r) => r.durationS),
    },
  );
}

function summary(
  samples: number[],
  counts: Pick<LoadResult, 'requests' | 'ok' | 'non2xx' | 'errors' | 'timeouts' | 'durationS'>,
): LoadResult {
  const sorted = [...samples].sort((a, b) => a - b);
  const pct = (p: number) =>
    sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number) : 0;
  return {
    ...counts,
    // Only successful answers count: a fast 400 or 500 must never look like throughput.
    rps: counts.durationS > 0 ? counts.ok / counts.durationS : 0,
    p50Ms: pct(0.5),
    p99Ms: pct(0.99),
    meanMs: sorted.length ? sorted.reduce((s, v) => s + v, 0) / sorted.length : 0,
  };
}
