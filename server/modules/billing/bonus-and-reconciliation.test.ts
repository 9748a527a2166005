import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { currentSubscriptionEndpoint } from '#shared/contracts/current-subscription.ts';
import { auditLog, entitlements, invoices, subscriptions } from '../../db/schema/index.ts';
import { GatewayRequestError } from '../../platform/payments/gateway.ts';
import { openShop } from '../../test/billing-kit.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser } from '../../test/test-sessions.ts';
import { grantBonusDays } from './bonus-days.ts';
import { accessOf } from './entitlement-sync.ts';
import { lapseEndedPeriods, reconcile } from './reconciliation.ts';

const DAY_MS = 86_400_000;
const e = billingEndpoints;

describe('bonus days (service 5) and the daily reconciliation', async () => {
  const { app } = await createTestApp();
  afterAll(() => app.close());
  const shop = await openShop(app);
  const { call } = shop;

  it('grants bonus days as a free bonus run: zero invoice, ledger, §4 bonus upgrade', async () => {
    const { user, cookie } = await signedInUser(app);
    const before = app.payments.clock.now();
    await grantBonusDays(app, user, { days: 30, description: '30 bonus days', actorId: null });
    const current = await call(currentSubscriptionEndpoint, { cookie });
    expect(current.data.subscription).toMatchObject({
      status: 'active',
      service_id: 5,
      onetime: false,
    });
    const detail = (await call(e.subscription, { cookie })).data.subscription;
    expect(detail.payment_method.type).toBe('bonus');
    const end = new Date(detail.current_period_end ?? 0).getTime();
    expect(end - before.getTime()).toBeGreaterThanOrEqual(30 * DAY_MS - 1000);
    const [invoice] = await app.db.select().from(invoices).where(eq(invoices.userId, user.id));
    expect(invoice).toMatchObject({ status: 'paid', total: 0, gateway: 'bonus' });
    const access = await accessOf(app.db, user.id, new Date());
    expect(access).toMatchObject({ active: true, sources: ['bonus'] });
    // More days extend the same run.
    await grantBonusDays(app, user, { days: 10, description: '10 bonus days', actorId: null });
    const runs = await app.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id));
    expect(runs).toHaveLength(1);
    expect(runs[0]?.currentPeriodEnd?.getTime()).toBe(end + 10 * DAY_MS);
    const audited = await app.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'billing.bonus_days_granted'),
          eq(auditLog.subjectId, String(user.id)),
        ),
      );
    expect(audited).toHaveLength(2);
  });

  it('charges nothing and refuses what bonus days cannot do', async () => {
    const gateway = app.payments.get('bonus');
    await expect(gateway?.refund('x', {})).rejects.toThrow(GatewayRequestError);
    await expect(gateway?.cancel('x', { atPeriodEnd: true })).rejects.toThrow(GatewayRequestError);
    await expect(gateway?.verifyWebhook(Buffer.from('{}'), {})).rejects.toThrow();
    // Never offered on the order page.
    const services = await call(e.services, {});
    expect(services.data.items.map((item) => item.service_id)).not.toContain(5);
  });

  it('keeps a running paid plan current, with bonus days granted beside it', async () => {
    const buyer = await signedInUser(app);
    await shop.buy(buyer);
    await grantBonusDays(app, buyer.user, { days: 7, description: '7 bonus days', actorId: null });
    const current = await call(currentSubscriptionEndpoint, { cookie: buyer.cookie });
    expect(current.data.subscription).toMatchObject({ status: 'active', service_id: 1 });
    const access = await accessOf(app.db, buyer.user.id, new Date());
    expect(access.sources.sort()).toEqual(['bonus', 'subscription']);
  });

  it('ends a bonus run when its days are spent', async () => {
    const { user, cookie } = await signedInUser(app);
    await grantBonusDays(app, user, { days: 1, description: '1 bonus day', actorId: null });
    await app.payments.clock.advance(2 * DAY_MS);
    await lapseEndedPeriods(app);
    const current = await call(currentSubscriptionEndpoint, { cookie });
    expect(current.data.subscription).toMatchObject({ status: 'expired', service_id: 5 });
    const [row] = await app.db.select().from(entitlements).where(eq(entitlements.userId, user.id));
    expect(row?.endsAt && row.endsAt <= app.payments.clock.now()).toBe(true);
  });

  it('corrects what a lost webhook missed, once, and logs each correction', async () => {
    const buyer = await signedInUser(app);
    const bought = await shop.buy(buyer);
    const id = bought.data.subscription_id as number;
    // The gateway cancels at period end, and the webhook telling us never arrives.
    const [row] = await app.db.select().from(subscriptions).where(eq(subscriptions.id, id));
    const sandbox = app.payments.get('sandbox');
    await sandbox?.cancel(row?.gatewayRef as string, { atPeriodEnd: true });
    const corrections = await reconcile(app);
    const mine = corrections.filter((correction) => correction.subscriptionId === id);
    expect(mine).toEqual([
      expect.objectContaining({
        gateway: 'sandbox',
        before: expect.objectContaining({ status: 'active', cancelAtPeriodEnd: false }),
        after: expect.objectContaining({ status: 'canceled', cancelAtPeriodEnd: true }),
      }),
    ]);
    const detail = (await call(e.subscription, { cookie: buyer.cookie })).data.subscription;
    expect(detail).toMatchObject({ status: 'canceled', cancel_at_period_end: true });
    const audited = await app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'billing.reconciled'), eq(auditLog.subjectId, String(id))));
    expect(audited).toHaveLength(1);
    // Once in step, the next run finds nothing to correct.
    const again = await reconcile(app);
    expect(again.filter((correction) => correction.subscriptionId === id)).toEqual([]);
  });
});
