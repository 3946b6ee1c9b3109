// autocannon ships no types (and @types/autocannon is not a dependency): the subset the bench uses.
declare module 'autocannon' {
  export interface Request {
    method?: 'GET' | 'POST';
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  export interface Options {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    timeout?: number;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    requests?: Request[];
  }
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    total: number;
  }
  export interface Result {
    requests: Histogram & { sent: number };
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    '2xx': number;
    '4xx': number;
    '5xx': number;
  }
  export interface Instance extends PromiseLike<Result> {
    /** Fires per answer; `responseTime` is in milliseconds with sub-millisecond precision. */
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void,
    ): this;
    stop(): void;
  }
  export default function autocannon(options: Options): Instance;
}
