export interface BenchOptions {
  /** Seconds of measured load per scenario. */
  duration: number;
  /** Seconds of unmeasured load first, so the JIT and connection pools settle. */
  warmup: number;
  connections: number;
  pipelining: number;
  /** Websocket clients held open by the realtime scenarios. */
  realtimeClients: number;
  /** Scenario names to run (with their baselines); empty means all. */
  only: string[];
}

function integer(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  // Bounds keep a typo from turning into an hour-long run or a self-inflicted overload.
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

export function readOptions(): BenchOptions {
  return {
    duration: integer('BENCH_DURATION', 10, 1, 300),
    warmup: integer('BENCH_WARMUP', 2, 0, 60),
    connections: integer('BENCH_CONNECTIONS', 50, 1, 1000),
    pipelining: integer('BENCH_PIPELINING', 1, 1, 100),
    realtimeClients: integer('BENCH_REALTIME_CLIENTS', 1000, 1, 10_000),
    only: (process.env.BENCH_ONLY ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  };
}
