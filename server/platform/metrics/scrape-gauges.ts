import type { FastifyBaseLogger } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { GaugeSpec, Metrics } from './metrics.ts';

function withDeadline<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * `readAtScrape` over prom-client's `collect()`: a scrape asks every gauge at once (the
 * registry calls each collect in the same turn), so the first gauge of a read starts it
 * and the others of that read wait for the same answer.
 */
export function scrapeGauges(
  registry: Registry,
  log: FastifyBaseLogger,
  timeoutMs: number,
): Metrics['readAtScrape'] {
  const readErrors = new Counter({
    name: 'metrics_read_errors_total',
    help: 'Reads behind scrape-time gauges that failed or were too slow; their gauges were empty.',
    labelNames: ['read'],
    registers: [registry],
  });

  return <T>(name: string, read: () => Promise<T> | T, specs: readonly GaugeSpec<T>[]) => {
    readErrors.inc({ read: name }, 0);
    let current: Promise<T> | undefined;
    const readOnce = () => {
      current ??= withDeadline(Promise.resolve().then(read), timeoutMs, `metrics read ${name}`)
        .catch((error: unknown) => {
          readErrors.inc({ read: name });
          log.warn({ err: error, read: name }, 'metrics read failed');
          throw error;
        })
        .finally(() => {
          current = undefined;
        });
      return current;
    };
    for (const spec of specs) {
      const labelled = (spec.labelNames?.length ?? 0) > 0;
      new Gauge({
        name: spec.name,
        help: spec.help,
        labelNames: spec.labelNames ?? [],
        registers: [registry],
        async collect() {
          let answer: T;
          try {
            answer = await readOnce();
          } catch {
            this.reset();
            // Not a misleading 0: an unlabelled gauge says it does not know.
            if (!labelled) this.set(Number.NaN);
            return;
          }
          // Label sets that are gone (a queue removed) must not linger from an earlier scrape.
          this.reset();
          for (const reading of spec.values(answer)) {
            if (reading.labels) this.set(reading.labels, reading.value);
            else this.set(reading.value);
          }
        },
      });
    }
  };
}
