import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { currentSubscriptionEndpoint } from '#shared/contracts/current-subscription.ts';
import { auditLog, invoices, refunds, subscriptions } from '../../db/schema/index.ts';
import { CARDS, cardToken, openShop } from '../../test/billing-kit.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser } from '../../test/test-sessions.ts';
import { refundDuplicate } from './duplicate-orders.ts';
import { applyAnswer } from './gateway-events.ts';
import { customerRefFor, priceFor } from './gateway-refs.ts';

describe('two orders approved at the provider', async () => {
  const { app } = await createTestApp();
  afterAll(() => app.close());
  const shop = await openShop(app);

  it('ends the second beside a paid plan and gives its payment back, once', async () => {
    const buyer = await signedInUser(app);
    const first = await shop.buy(buyer);
    const firstId = first.data.subscription_id as number;
    // The other tab's order, approved at the provider after the first was paid: our order
    // check never saw it, the gateway's answer (or webhook) brings it in.
    const gateway = app.payments.get('sandbox');
    if (!gateway) throw new Error('the test app sells through the sandbox');
    const outcome = await gateway.startSubscription({
      customerRef: await customerRefFor(app, gateway, buyer.user),
      items: [await priceFor(app, gateway, await shop.plan('1 year'))],
      discount: null,
      paymentToken: await cardToken(app, CARDS.visa),
      paymentMethodRef: null,
      returnUrl: 'http://localhost/thanks',
      cancelUrl: 'http://localhost/order',
      idempotencyKey: randomUUID(),
      metadata: { userId: String(buyer.user.id) },
    });
    if (outcome.kind !== 'completed') throw new Error(`second order: ${outcome.kind}`);
    const applied = await applyAnswer(app, gateway, outcome);
    const secondId = applied.subscription?.row.id as number;

    // Its payment is reported by the gateway's webhooks; then the refund job gives it back.
    await app.queue.drain({ timeoutMs: 20_000 });
    const apply = (_name: string, snapshots: object) =>
      applyAnswer(app, gateway, snapshots as Parameters<typeof applyAnswer>[2]);
    await refundDuplicate(app, secondId, apply);
    // Run again (a retried job): nothing is refunded twice.
    expect(await refundDuplicate(app, secondId, apply)).toBe(0);
    const [second] = await app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, secondId));
    expect(['refunded', 'expired']).toContain(second?.status);
    const given = await app.db
      .select({ amount: refunds.amount })
      .from(refunds)
      .innerJoin(invoices, eq(invoices.id, refunds.invoiceId))
      .where(eq(invoices.subscriptionId, secondId));
    expect(given).toHaveLength(1);
    const audits = await app.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'billing.duplicate_order_undone'),
          eq(auditLog.subjectId, String(secondId)),
        ),
      );
    expect(audits.map((entry) => entry.data)).toEqual([
      expect.objectContaining({ kept_subscription_id: firstId, canceled: true }),
      { refunded: 1 },
    ]);
    // The first plan is untouched and still the current one.
    const current = await shop.call(currentSubscriptionEndpoint, { cookie: buyer.cookie });
    expect(current.data.subscription).toMatchObject({ status: 'active' });
    const [kept] = await app.db.select().from(subscriptions).where(eq(subscriptions.id, firstId));
    expect(kept?.status).toBe('active');
  });
});
