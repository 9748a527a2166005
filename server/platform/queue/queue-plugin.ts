import { setTimeout as sleep } from 'node:timers/promises';
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
 * How often an idle worker (a dozen, one a queue) and the schedules' worker look for jobs.
 * At pg-boss's 2 s and 5 s, polling was most of an idle app's CPU (1.1 % of a core on PGlite,
 * 0.55 % on PostgreSQL, Nov 2026); a job sent in this process wakes its worker at once
 * (pg-boss-queue.ts), so a poll only finds what was sent elsewhere or in a transaction, a
 * retry come due, or a schedule's tick: 10 s later is soon enough for those.
 */
const IDLE_POLLING: QueuePluginOptions = {
  pollingIntervalSeconds: 10,
  cronWorkerIntervalSeconds: 10,
};

/** How long the app's start waits for the queue's first try before serving without it. */
const FIRST_START_WAIT_MS = 5_000;

/**
 * Decorates the app with `queue`, durable jobs on pg-boss in the app's own database (its
 * `pgboss` schema, made or migrated by pg-boss as the app gets ready; a database that is down
 * at boot holds the start up by at most FIRST_START_WAIT_MS, the queue then keeps trying in
 * the background). Workers and schedules registered before then start with it; a send made
 * before then waits for it. On close it first takes no more jobs and waits for
 * the running ones (up to half of SHUTDOWN_TIMEOUT_MS), while requests still finishing can
 * send; its last queries end before the database closes.
 */
export const queuePlugin = fp<QueuePluginOptions>(
  async (app: FastifyInstance, options) => {
    const queue = new PgBossQueue({
      db: queueDbFor(app.db),
      log: app.log.child({ component: 'queue' }),
      stopTimeoutMs: app.config.shutdownTimeoutMs / 2,
      ...IDLE_POLLING,
      ...options,
    });
    app.decorate('queue', queue as JobQueue);
    // Ready once the queue has started (or its first try failed, or it took too long), so
    // the first requests find their workers registered and can send.
    app.addHook('onReady', async () => {
      const late = new AbortController();
      await Promise.race([
        queue.startInBackground(),
        sleep(FIRST_START_WAIT_MS, undefined, { signal: late.signal }).catch(() => {}),
      ]);
      late.abort();
    });
    app.addHook('preClose', () => queue.stop());
    app.addHook('onClose', () => queue.close());
  },
  { name: 'queue', dependencies: ['database'] },
);
