import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { onBillingApplied } from '../billing/billing-listeners.ts';
import { seedDemoFamily } from './demo-family.ts';
import { familySweep, onOwnerBilling } from './family-sweep.ts';

const SWEEP = 'family.sweep';

/**
 * Family sharing's background part: members' access follows each change of an owner's plan
 * (billing's listener), and a sweep every few minutes (and on every move of the test clock)
 * expires invites after their week and repairs what a lost listener run missed.
 */
export const familySharingPlugin = fp(
  async (app: FastifyInstance) => {
    if (!app.config.features.has('family_sharing')) return;
    onBillingApplied(app, onOwnerBilling);
    await app.queue.work(SWEEP, () => familySweep(app));
    await app.queue.schedule(SWEEP, '*/5 * * * *');
    app.payments.clock.onAdvance(() => familySweep(app));
    if (app.config.seedDemo && app.config.features.has('billing')) {
      app.addHook('onReady', async () => {
        void seedDemoFamily(app).catch((error: unknown) =>
          app.log.error({ err: error }, 'demo family could not be seeded'),
        );
      });
    }
  },
  { name: 'family-sharing', dependencies: ['database', 'queue', 'payments', 'billing'] },
);
