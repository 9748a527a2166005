import type { AddressInfo } from 'node:net';

// What the rest of the server sees of metrics (`app.metrics`): gauges it fills when
// Prometheus scrapes, from one read shared by them. No module imports prom-client; the
// metrics plugin (metrics-plugin.ts) turns these into its series, or ignores them when
// metrics are off.

/** One value of a gauge; `labels` only when the gauge declares label names. */
export interface Reading {
  labels?: Record<string, string>;
  value: number;
}

export interface GaugeSpec<T> {
  /** Prometheus naming: base units, `_seconds`, `_bytes`; never `_total` (that is a counter's). */
  name: string;
  help: string;
  /** Label values name kinds (a queue, a gateway, a status), never a person, an id or an address. */
  labelNames?: readonly string[];
  /** The gauge's values from what its read answered. */
  values(read: T): readonly Reading[];
}

export interface Metrics {
  /**
   * Gauges filled at each scrape from one call of `read` (a query, a count), shared by them.
   * A read that fails or takes longer than SCRAPE_READ_TIMEOUT_MS leaves them empty for that
   * scrape and counts in `metrics_read_errors_total{read="<name>"}`; the scrape still answers.
   */
  readAtScrape<T>(name: string, read: () => Promise<T> | T, gauges: readonly GaugeSpec<T>[]): void;
  /** Where the metrics listener answers once the app is ready; undefined when metrics are off. */
  address(): AddressInfo | undefined;
}

/** A read that takes longer is given up for that scrape (Prometheus waits 10 s by default). */
export const SCRAPE_READ_TIMEOUT_MS = 2_000;

/** What `app.metrics` is when METRICS_PORT is unset: nothing is read or counted. */
export const NO_METRICS: Metrics = {
  readAtScrape: () => {},
  address: () => undefined,
};

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}
