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
  durationS: number;
}

/** One run's result with the timing of each successful answer, so runs can be combined. */
export interface TimedLoad {
  result: LoadResult;
  samples: number[];
}

/**
 * Drives `url` with autocannon. Latency percentiles are computed from every answer's own timing:
 * autocannon's histogram rounds to whole milliseconds, which hides differences below a millisecond
 * between the baseline and a framework answer.
 */
export async function load(options: LoadOptions): Promise<LoadResult> {
  return (await timedLoad(options)).result;
}

export async function timedLoad(options: LoadOptions): Promise<TimedLoad> {
  const samples: number[] = [];
  const runs = staggered(options.requests, options.connections).map(({ requests, connections }) => {
    const instance = autocannon({
      url: options.url,
      connections,
      duration: options.durationS,
      // A request that hangs this long is a failure worth seeing, not a latency sample.
      timeout: 30,
      requests,
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) samples.push(responseTime);
    });
    return instance;
  });
  const results = await Promise.all(runs);
  const sum = (f: (r: (typeof results)[number]) => number) => results.reduce((s, r) => s + f(r), 0);
  return {
    samples,
    result: summary(samples, {
      requests: sum((r) => r.requests.total),
      ok: sum((r) => r['2xx']),
      non2xx: sum((r) => r.non2xx),
      errors: sum((r) => r.errors),
      timeouts: sum((r) => r.timeouts),
      // The connections ran side by side: the run lasted as long as its longest one.
      durationS: Math.max(...results.map((r) => r.duration)),
    }),
  };
}

/**
 * The connections' request lists: each connection walks the whole list from its own place in it,
 * connection c of C from entry ⌊c·n/C⌋, so at any moment they ask for different things, as independent
 * clients do. autocannon itself starts every connection at the first entry: the connections would send
 * the same request at about the same time, and cipgate's turn batch, which reads a turn's lookups in one
 * statement, would read one name for several requests, which flatters it (the baseline shares nothing
 * between requests). autocannon has no per-connection list, so each connection is an instance of its
 * own; a list built per request instead (`setupRequest`) would add its building to every request of the
 * load generator, which the baseline's fastest scenarios would feel.
 */
export function staggered(
  requests: readonly Request[],
  connections: number,
): { requests: Request[]; connections: number }[] {
  const n = requests.length;
  if (n < 2) return [{ requests: [...requests], connections }];
  return Array.from({ length: connections }, (_, c) => {
    const first = Math.floor((c * n) / connections) % n;
    return { requests: [...requests.slice(first), ...requests.slice(0, first)], connections: 1 };
  });
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
