import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Mailer } from './mailer.ts';

// Decorates the app with `mailer`: SMTP when SMTP_URL is set, else the outbox table and
// the log. The transport closes with the app.
export const mailerPlugin = fp(
  async (app: FastifyInstance) => {
    const mailer = new Mailer({
      db: app.db,
      config: app.config,
      log: app.log.child({ component: 'mailer' }),
    });
    app.decorate('mailer', mailer);
    app.addHook('onClose', async () => mailer.close());
  },
  { name: 'mailer', dependencies: ['database'] },
);
