import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Snapshots } from './apply-snapshots.ts';
import { onBillingApplied } from './billing-listeners.ts';
import { billingSweep } from './billing-sweep.ts';
import { Catalog } from './catalog.ts';
import { configureFromEnvironment, watchGatewaySettings } from './configure-gateways.ts';
import { recordCouponUse } from './coupon-uses.ts';
import { seedDemoBilling } from './demo-billing.ts';
import { seedDemoHistory } from './demo-history.ts';
import { REFUND_DUPLICATE_QUEUE, refundDuplicate } from './duplicate-orders.ts';
import { applyAnswer } from './gateway-events.ts';
import { reconcile } from './reconciliation.ts';

declare module 'fastify' {
  interface FastifyInstance {
    catalog: Catalog;
    /**
     * Settles once the demo billing (history, then the demo customer's order) is in; at once
     * when there is none. Other domains' demo data that buys or grants waits for it: bonus
     * days granted first would stand in the way of the demo order.
     */
    demoBillingSeeded: Promise<void>;
  }
}

const SWEEP = 'billing.sweep';
/** Daily, at a quiet hour: our subscriptions against each gateway's. */
const RECONCILE = 'billing.reconcile';

/**
 * Billing's shared parts: the catalog cache, and its timed work (renewal retries and
 * reminders) on the durable queue every minute and on every move of the test clock.
 */
export const billingPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('catalog', new Catalog(app.db));
    let seeded = () => {};
    const seeding = app.config.seedDemo && app.config.features.has('billing');
    app.decorate(
      'demoBillingSeeded',
      seeding ? new Promise<void>((resolve) => (seeded = resolve)) : Promise.resolve(),
    );
    if (!app.config.features.has('billing')) return;
    configureFromEnvironment(app);
    watchGatewaySettings(app);
    onBillingApplied(app, recordCouponUse);
    await app.queue.work(SWEEP, () => billingSweep(app));
    await app.queue.schedule(SWEEP, '* * * * *');
    app.payments.clock.onAdvance(() => billingSweep(app));
    await app.queue.work(RECONCILE, async () => {
      await reconcile(app);
    });
    await app.queue.schedule(RECONCILE, '17 3 * * *');
    await app.queue.work(REFUND_DUPLICATE_QUEUE, async (job) => {
      const { subscriptionId } = job.data as { subscriptionId: number };
      await refundDuplicate(app, subscriptionId, (name, snapshots) => {
        const gateway = app.payments.get(name);
        return gateway ? applyAnswer(app, gateway, snapshots as Snapshots) : Promise.resolve();
      });
    });
    if (app.config.seedDemo) {
      // In the background: the first start serves at once, the demo history and order land a
      // moment later. The history first: on the embedded database its one transaction holds
      // the only connection from before the server listens, so readiness (a ping) waits for it
      // rather than a journey's first requests; the demo order then numbers its invoice last.
      app.addHook('onReady', async () => {
        void (async () => {
          await seedDemoHistory(app).catch((error: unknown) =>
            app.log.error({ err: error }, 'demo billing history could not be seeded'),
          );
          await seedDemoBilling(app).catch((error: unknown) =>
            app.log.error({ err: error }, 'demo billing could not be seeded'),
          );
          seeded();
        })();
      });
    }
  },
  { name: 'billing', dependencies: ['database', 'queue', 'payments'] },
);
