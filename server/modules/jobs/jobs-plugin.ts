import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { App } from '../../http/types.ts';
import { SCHEDULED_JOBS, type ScheduledJob } from './scheduled-jobs.ts';

export interface JobsPluginOptions {
  /** The jobs to run; every scheduled job of the product by default. */
  jobs?: readonly ScheduledJob[];
}

/**
 * Runs the scheduled jobs inside every API process, each on its own timer, once the app is
 * ready. The timers are unref'd (they never keep a process alive), a job whose last run is
 * still going skips its turn, and on close the timers stop and a run in progress is
 * awaited, so the database is never closed under it. Jobs are written to be safe when
 * several processes run them at once, so no process is special.
 */
export const jobsPlugin = fp<JobsPluginOptions>(
  async (app: FastifyInstance, options) => {
    const jobs = options.jobs ?? SCHEDULED_JOBS;
    const timers: NodeJS.Timeout[] = [];
    const running = new Map<string, Promise<void>>();

    const run = (job: ScheduledJob) => {
      if (running.has(job.name)) return;
      const done = job
        .run(app as App)
        .then(
          () => undefined,
          (error: unknown) => app.log.error({ err: error, job: job.name }, 'scheduled job failed'),
        )
        .finally(() => running.delete(job.name));
      running.set(job.name, done);
    };

    app.addHook('onReady', async () => {
      for (const job of jobs) {
        const first = setTimeout(() => {
          run(job);
          const every = setInterval(() => run(job), job.everyMs);
          every.unref();
          timers.push(every);
        }, job.firstRunMs);
        first.unref();
        timers.push(first);
      }
    });

    app.addHook('preClose', async () => {
      for (const timer of timers) clearTimeout(timer);
      await Promise.allSettled(running.values());
    });
  },
  { name: 'jobs' },
);
