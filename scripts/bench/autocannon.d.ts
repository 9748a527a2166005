// autocannon ships no types and @types/autocannon is not installed; this covers only what the
// harness uses, so a wrong field name fails the type check instead of reading `undefined`.
declare module 'autocannon' {
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }

  export interface Result {
    url: string;
    duration: number;
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  /** One connection's client; only the part the harness touches. */
  export interface Client {
    pipelinedRequests: { addBody(data: Buffer): void };
  }

  export interface Options {
    url: string;
    method?: string;
    body?: string;
    headers?: Record<string, string>;
    connections?: number;
    pipelining?: number;
    duration?: number;
    timeout?: number;
    setupClient?: (client: Client) => void;
  }

  export interface Instance {
    stop(): void;
  }

  function autocannon(
    options: Options,
    done: (error: Error | null, result: Result) => void,
  ): Instance;

  export default autocannon;
}
