import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { gatewayEvents, mailOutbox, subscriptions } from '../../db/schema/index.ts';
import { signSandboxWebhook } from '../../platform/payments/sandbox/sandbox-gateway.ts';
import { CARDS, cardToken, openShop } from '../../test/billing-kit.ts';
import { createTestApp } from '../../test/test-app.ts';
import { advanceTestClock } from '../../test/test-clock.ts';
import { signedInUser, type TestSession } from '../../test/test-sessions.ts';

const e = billingEndpoints;
const WEBHOOK = '/api/public/v1/webhooks/sandbox';

describe('renewals, dunning and webhooks', async () => {
  const { app } = await createTestApp();
  afterAll(() => app.close());
  const shop = await openShop(app);
  const { call } = shop;

  async function advanceDays(days: number) {
    const moved = await advanceTestClock(app, { days });
    expect(moved.statusCode).toBe(200);
    await app.queue.drain({ timeoutMs: 20_000 });
    // Retries the sweep starts deliver their webhooks too.
    await app.payments.clock.advance(0);
    await app.queue.drain({ timeoutMs: 20_000 });
  }

  /** Renewals of this customer's plan go to a card whose charges all fail. */
  async function renewOnFailingCard(buyer: TestSession) {
    const failing = await call(e.cardCreate, {
      cookie: buyer.cookie,
      body: { token: await cardToken(app, CARDS.chargesFail) },
    });
    const bad = failing.data.items.find((card) => card.last4 === '0341');
    await call(e.setDefaultSource, {
      cookie: buyer.cookie,
      body: { card_id: bad?.card_id as string },
    });
  }

  const detail = async (cookie: string) =>
    (await call(e.subscription, { cookie })).data.subscription;
  const mailsTo = async (to: string, template: string) =>
    app.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, to), eq(mailOutbox.template, template)));

  it('stores every webhook with its outcome, and a replay changes nothing', async () => {
    const buyer = await signedInUser(app);
    await shop.buy(buyer);
    await app.queue.drain({ timeoutMs: 20_000 });
    const events = await app.db
      .select()
      .from(gatewayEvents)
      .where(eq(gatewayEvents.gateway, 'sandbox'));
    expect(events.length).toBeGreaterThan(0);
    expect(
      events.every((event) => event.outcome === 'applied' || event.outcome === 'ignored'),
    ).toBe(true);
    const before = await detail(buyer.cookie);

    const first = events[0];
    const body = JSON.stringify(first?.payload);
    const replay = await app.inject({
      method: 'POST',
      url: WEBHOOK,
      headers: {
        'content-type': 'application/json',
        'sandbox-signature': signSandboxWebhook(
          app.config.billing.sandbox?.webhookSecret ?? '',
          body,
        ),
      },
      payload: body,
    });
    expect(replay.statusCode).toBe(200);
    expect(await detail(buyer.cookie)).toEqual(before);
  });

  it('refuses forged, tampered and stale signatures with 400', async () => {
    const secret = app.config.billing.sandbox?.webhookSecret ?? '';
    const body = JSON.stringify({
      id: `evt_forged_${randomUUID()}`,
      type: 'customer.subscription.updated',
      data: {},
    });
    const forged = signSandboxWebhook('whsec_not_the_secret_at_all_0000', body);
    const stale = signSandboxWebhook(secret, body, Math.floor(Date.now() / 1000) - 3600);
    for (const [headers, payload] of [
      [{}, body],
      [{ 'sandbox-signature': forged }, body],
      [{ 'sandbox-signature': signSandboxWebhook(secret, body) }, `${body} `],
      [{ 'sandbox-signature': stale }, body],
    ] as const) {
      const answer = await app.inject({
        method: 'POST',
        url: WEBHOOK,
        headers: { 'content-type': 'application/json', ...headers },
        payload,
      });
      expect(answer.statusCode).toBe(400);
    }
    const stored = await app.db
      .select()
      .from(gatewayEvents)
      .where(eq(gatewayEvents.type, 'customer.subscription.updated'));
    expect(stored.filter((event) => event.eventRef.startsWith('evt_forged_'))).toEqual([]);
  });

  it('renews on schedule with the test clock, mailing a receipt', async () => {
    const buyer = await signedInUser(app);
    await shop.buy(buyer);
    const first = await detail(buyer.cookie);
    await advanceDays(31);
    const renewed = await detail(buyer.cookie);
    expect(renewed.status).toBe('active');
    expect(new Date(renewed.current_period_end ?? 0).getTime()).toBeGreaterThan(
      new Date(first.current_period_end ?? 0).getTime(),
    );
    const invoices = (await call(e.invoices, { cookie: buyer.cookie })).data.items;
    expect(invoices.map((invoice) => invoice.status)).toEqual(['paid', 'paid']);
    expect((await mailsTo(buyer.user.email, 'billing_receipt')).length).toBe(2);
  });

  it('puts a failed renewal on hold with access, retries on days 1, 3 and 5, then fails', async () => {
    const buyer = await signedInUser(app);
    await shop.buy(buyer);
    await renewOnFailingCard(buyer);

    await advanceDays(31);
    const held = await detail(buyer.cookie);
    expect(held.status).toBe('on_hold');
    expect(held.grace_until).not.toBeNull();
    const current = await call(e.invoices, { cookie: buyer.cookie });
    expect(current.data.items[0]?.status).toBe('open');
    expect((await mailsTo(buyer.user.email, 'billing_payment_failed')).length).toBe(1);

    for (const day of [1, 2, 2]) await advanceDays(day);
    const [row] = await app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, buyer.user.id));
    expect(row?.status).toBe('failed');
    expect((await mailsTo(buyer.user.email, 'billing_payment_failed')).length).toBe(4);
  });

  it('takes a new card on fix-payment-method: the open invoice is paid and the plan active again', async () => {
    const buyer = await signedInUser(app);
    await shop.buy(buyer);
    await renewOnFailingCard(buyer);
    await advanceDays(31);
    expect((await detail(buyer.cookie)).status).toBe('on_hold');

    const declined = await call(e.fix, {
      cookie: buyer.cookie,
      body: { token: await cardToken(app, CARDS.declined), idempotency_key: randomUUID() },
    });
    expect(declined.status).toBe(422);
    const fixed = await call(e.fix, {
      cookie: buyer.cookie,
      body: { token: await cardToken(app, CARDS.visa), idempotency_key: randomUUID() },
    });
    expect(fixed.status).toBe(200);
    expect(fixed.data.status).toBe('completed');
    await app.queue.drain({ timeoutMs: 20_000 });
    const active = await detail(buyer.cookie);
    expect(active.status).toBe('active');
    expect(active.payment_method.card?.last4).toBe('4242');
    expect((await call(e.invoices, { cookie: buyer.cookie })).data.items[0]?.status).toBe('paid');
  });

  it('ends a subscription canceled at period end when the period ends; reactivate buys anew', async () => {
    const buyer = await signedInUser(app);
    await shop.buy(buyer);
    await call(e.cancel, { cookie: buyer.cookie });
    expect((await mailsTo(buyer.user.email, 'billing_canceled')).length).toBe(1);
    await advanceDays(32);
    expect((await detail(buyer.cookie)).status).toBe('expired');
    // A new order is refused while one runs, but not now: reactivation is the door (§4).
    const plan = await shop.plan('1 month');
    const again = await call(e.reactivate, {
      cookie: buyer.cookie,
      body: {
        product_id: plan.id,
        payment: { service_id: 1, token: await cardToken(app, CARDS.visa) },
        idempotency_key: randomUUID(),
      },
    });
    expect(again.status).toBe(200);
    expect((await detail(buyer.cookie)).status).toBe('active');
  });

  it('mails a renewal reminder 3 days ahead, once a period', async () => {
    const buyer = await signedInUser(app);
    await shop.buy(buyer);
    await advanceDays(26);
    expect((await mailsTo(buyer.user.email, 'billing_renewal_reminder')).length).toBe(0);
    await advanceDays(2);
    await advanceDays(0);
    expect((await mailsTo(buyer.user.email, 'billing_renewal_reminder')).length).toBe(1);
  });
});
