import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, type Registry } from 'prom-client';
import { routePattern } from '../../http/route-pattern.ts';

/**
 * From a few milliseconds (a session lookup) to the 10 s a browser gives up around. The
 * long polls (the VPN nodes' peers, 25 s) land past the last bucket by design: leave their
 * route out of latency alerts.
 */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Counts every answered request by route pattern (routePattern: never the path, so no id,
 * address or token becomes a label, and a 404 is `unmatched`), method and status, and times
 * it by status class.
 */
export function countRequests(app: FastifyInstance, registry: Registry): void {
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status code.',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being written, by route pattern, method and status class.',
    labelNames: ['route', 'method', 'status_class'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = routePattern(request);
    const { method } = request;
    const status = reply.statusCode;
    requests.inc({ route, method, status });
    duration.observe(
      { route, method, status_class: `${Math.floor(status / 100)}xx` },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
