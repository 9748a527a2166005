import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { JobQueue } from './job-queue.ts';
import { queueDbFor } from './pg-boss-db.ts';
import { PgBossQueue, type QueueTimings } from './pg-boss-queue.ts';

declare module 'fastify' {
  interface FastifyInstance {
    queue: JobQueue;
  }
}

export type QueuePluginOptions = QueueTimings;

/**
 * Decorates the app with `queue`, durable jobs on pg-boss in the app's own database (its
 * `pgboss` schema, made or migrated by pg-boss once the app is ready, in the background so a
 * database that is down at boot holds nothing up). Workers and schedules registered before
 * then start with it; a send made before then waits for it. On close it first takes no more jobs and waits for
 * the running ones (up to half of SHUTDOWN_TIMEOUT_MS), while requests still finishing can
 * send; its last queries end before the database closes.
 */
export const queuePlugin = fp<QueuePluginOptions>(
  async (app: FastifyInstance, options) => {
    const queue = new PgBossQueue({
      db: queueDbFor(app.db),
      log: app.log.child({ component: 'queue' }),
      stopTimeoutMs: app.config.shutdownTimeoutMs / 2,
      ...options,
    });
    app.decorate('queue', queue as JobQueue);
    app.addHook('onReady', async () => queue.startInBackground());
    app.addHook('preClose', () => queue.stop());
    app.addHook('onClose', () => queue.close());
  },
  { name: 'queue', dependencies: ['database'] },
);
