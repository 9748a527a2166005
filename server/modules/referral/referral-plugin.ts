import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { onBillingApplied } from '../billing/billing-listeners.ts';
import { seedDemoReferrals } from './demo-referrals.ts';
import {
  grantSide,
  REWARD_QUEUE,
  type RewardJob,
  referralSweep,
  rewardOnPayment,
  SWEEP_QUEUE,
} from './referral-rewards.ts';

/**
 * The referral program's timed and event-driven work: rewards on a referred customer's first
 * payment, their grant jobs, and the sweep. With the `referral` flag (§1) off none of it
 * runs, so nothing is granted (grant jobs already queued wait for the flag to return).
 */
export const referralPlugin = fp(
  async (app: FastifyInstance) => {
    if (!app.config.features.has('referral') || !app.config.features.has('billing')) return;
    onBillingApplied(app, rewardOnPayment);
    await app.queue.work(REWARD_QUEUE, async (job) => {
      await grantSide(app, job.data as RewardJob);
    });
    await app.queue.work(SWEEP_QUEUE, () => referralSweep(app));
    await app.queue.schedule(SWEEP_QUEUE, '*/5 * * * *');
    if (app.config.seedDemo) {
      app.addHook('onReady', async () => {
        // After the demo order: the demo customer's bonus days come beside their paid plan.
        void app.demoBillingSeeded
          .then(() => seedDemoReferrals(app))
          .catch((error: unknown) =>
            app.log.error({ err: error }, 'demo referrals could not be seeded'),
          );
      });
    }
  },
  { name: 'referral', dependencies: ['database', 'queue', 'payments', 'billing'] },
);
