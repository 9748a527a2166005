import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MAIL_RETRY_QUEUE, type MailRetryPolicy } from './mail-retry.ts';
import { Mailer } from './mailer.ts';

export interface MailerPluginOptions {
  /** Quicker retries for tests; MAIL_RETRY otherwise. */
  retry?: MailRetryPolicy;
}

// Decorates the app with `mailer`: SMTP when SMTP_URL is set (with the worker that retries
// what failed for now), else the outbox table and the log. The transport closes with the
// app, after the queue has stopped taking jobs.
export const mailerPlugin = fp<MailerPluginOptions>(
  async (app: FastifyInstance, options) => {
    const mailer = new Mailer({
      db: app.db,
      config: app.config,
      log: app.log.child({ component: 'mailer' }),
      queue: app.queue,
      box: app.mailBox,
      ...(options.retry ? { retry: options.retry } : {}),
    });
    app.decorate('mailer', mailer);
    // Without SMTP_URL nothing is retried; jobs left from a run with it wait for it to return.
    if (mailer.delivers) await app.queue.work(MAIL_RETRY_QUEUE, (job) => mailer.retry(job));
    app.addHook('onClose', async () => mailer.close());
  },
  { name: 'mailer', dependencies: ['database', 'queue', 'crypto'] },
);
