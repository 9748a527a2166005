import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { seedDemoNotifications } from './demo-notifications.ts';
import { LIST_SEND_QUEUE, runListSend } from './list-mailing.ts';

/**
 * Notification e-mail lists: the worker that sends staff's messages to a list, and the demo's
 * subscriptions (the default lists come with migration 0014).
 */
export const notificationsPlugin = fp(
  async (app: FastifyInstance) => {
    await app.queue.work(LIST_SEND_QUEUE, async (job) => {
      const { sendId } = job.data as { sendId: number };
      await runListSend(
        {
          db: app.db,
          mailer: app.mailer,
          queue: app.queue,
          config: app.config,
          log: app.log,
        },
        sendId,
      );
    });
    if (app.config.seedDemo) {
      app.addHook('onReady', async () => {
        await seedDemoNotifications(app.db).catch((error: unknown) =>
          app.log.error({ err: error }, 'demo notification lists could not be seeded'),
        );
      });
    }
  },
  { name: 'notifications', dependencies: ['database', 'queue', 'mailer'] },
);
