import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { subscriptions } from '../../db/schema/index.ts';
import { openShop } from '../../test/billing-kit.ts';
import { createTestApp } from '../../test/test-app.ts';
import { describeWithPostgres } from '../../test/test-services.ts';
import { signedInUser } from '../../test/test-sessions.ts';
import { applyAnswer } from './gateway-events.ts';
import { BILLING_BOOKS_LOCK } from './invoice-numbers.ts';

// A gateway's report of a subscription applied while another transaction changes the books:
// the applier once locked the subscription's row and then waited for the books, while the
// other held the books and came for that row, and PostgreSQL killed one as a deadlock (a
// webhook answered 500, staff's change failed). Only PostgreSQL runs transactions side by side.

describeWithPostgres('the books and a subscription row, locked by two transactions', () => {
  it('are taken in one order: a report waits for the books, and both then go through', async () => {
    const { app } = await createTestApp();
    try {
      const shop = await openShop(app);
      const buyer = await signedInUser(app);
      expect((await shop.buy(buyer)).status).toBe(200);
      const [held] = await app.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, buyer.user.id));
      const gateway = app.payments.get('sandbox');
      if (!held || !gateway) throw new Error('no subscription bought on the sandbox');
      const snapshot = await gateway.fetchSubscription(held.gatewayRef);
      if (!snapshot) throw new Error('the sandbox lost the subscription');

      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let holding = () => {};
      const holds = new Promise<void>((resolve) => {
        holding = resolve;
      });
      // Another change of the books (staff's, a sweep's): it holds them, then changes this row.
      const change = app.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${BILLING_BOOKS_LOCK})`);
        holding();
        await released;
        await tx
          .update(subscriptions)
          .set({ cancelAtPeriodEnd: true })
          .where(eq(subscriptions.id, held.id));
      });
      await holds;
      const report = applyAnswer(app, gateway, {
        subscription: { ...snapshot, updatedAt: new Date(Date.now() + 60_000) },
      });
      // The report gets as far as it can while the books are held.
      await sleep(300);
      release();
      const [changed, reported] = await Promise.allSettled([change, report]);
      expect(changed.status).toBe('fulfilled');
      expect(reported.status).toBe('fulfilled');
      const [after] = await app.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.id, held.id));
      // The report came second, and is the gateway's word on the row.
      expect(after?.cancelAtPeriodEnd).toBe(snapshot.cancelAtPeriodEnd);
    } finally {
      await app.close();
    }
  }, 30_000);
});
