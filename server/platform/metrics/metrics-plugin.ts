import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { notFoundError, sendError } from '../../http/error-handler.ts';
import { countRequests } from './http-metrics.ts';
import { NO_METRICS, SCRAPE_READ_TIMEOUT_MS } from './metrics.ts';
import { closeScrapes, listenForScrapes } from './metrics-server.ts';
import { scrapeGauges } from './scrape-gauges.ts';

/**
 * Decorates the app with `metrics` (metrics.ts). With METRICS_PORT set: a registry of this
 * app's own (tests build many apps in one process), the process's figures (memory, event
 * loop delay, GC: prom-client's defaults), every request counted and timed, and the gauges
 * modules declare, all served on that port (metrics-server.ts) from when the app is ready
 * until it closes. Unset: nothing is counted, and `app.metrics` takes declarations and
 * does nothing. Registered before the routes, so its hook sees every one.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    // The product's own port never serves metrics, whatever the setting: a scraper pointed
    // there gets a 404, not the web app's page.
    app.get(
      '/metrics',
      { schema: { hide: true }, config: { access: 'public' } },
      (_request, reply) => sendError(reply, notFoundError()),
    );

    const settings = app.config.metrics;
    if (!settings) {
      app.decorate('metrics', NO_METRICS);
      return;
    }
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    countRequests(app, registry);
    let server: Server | undefined;
    app.decorate('metrics', {
      readAtScrape: scrapeGauges(registry, app.log, SCRAPE_READ_TIMEOUT_MS),
      address: () => server?.address() as AddressInfo | undefined,
    });
    app.addHook('onReady', async () => {
      server = await listenForScrapes(registry, settings, app.log);
    });
    app.addHook('onClose', async () => {
      if (server) await closeScrapes(server);
    });
  },
  { name: 'metrics' },
);
