import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, billingEndpoints } from '#shared/contracts/billing.ts';
import { currentSubscriptionEndpoint } from '#shared/contracts/current-subscription.ts';
import { queryRows } from '../../db/client.ts';
import {
  couponHolds,
  couponProducts,
  coupons,
  entitlements,
  gatewayCustomers,
  products,
  subscriptions,
} from '../../db/schema/index.ts';
import { CARDS, cardToken, openShop } from '../../test/billing-kit.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser } from '../../test/test-sessions.ts';
import { billingSweep } from './billing-sweep.ts';
import { COUPON_HOLD_MS } from './coupon-uses.ts';
import { applyAnswer } from './gateway-events.ts';

const e = billingEndpoints;

describe('buying a plan on the sandbox gateway', async () => {
  const { app } = await createTestApp();
  afterAll(() => app.close());
  const shop = await openShop(app);
  const { call } = shop;
  const redemptionsOf = (code: string) =>
    queryRows<{ user_id: number | null; subscription_id: number | null }>(
      app.db,
      sql`select r.user_id, r.subscription_id from coupon_redemptions r
          join coupons c on c.id = r.coupon_id where c.code = ${code} order by r.id`,
    );

  it('sells the catalog of a currency to visitors, plans by sort with their display flags', async () => {
    const answer = await call(e.products, { query: { currency: 'EUR', service_id: 1 } });
    expect(answer.status).toBe(200);
    const plans = answer.data.items.filter((item) => !item.additional);
    expect(plans.map((item) => item.name)).toEqual([
      '1 month',
      '1 year',
      '2 years',
      'Family, 1 year',
    ]);
    const yearly = plans[1];
    expect(yearly).toMatchObject({
      currency: 'EUR',
      as_monthly_rate: true,
      as_most_selected: true,
    });
    expect(yearly?.monthly_amount).toBe(549);
    expect(yearly?.saving_percent).toBeGreaterThan(50);
    const services = await call(e.services);
    expect(services.data.items).toEqual([
      expect.objectContaining({
        service_id: 1,
        checkout: 'card_form',
        tokenize_url: '/sandbox/v1/tokens',
      }),
    ]);
  });

  it('charges 4242 at once: thanks-ready subscription, numbered paid invoice, VPN access', async () => {
    const buyer = await signedInUser(app);
    const plan = await shop.plan('1 month');
    const answer = await shop.buy(buyer);
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({ status: 'completed', redirect_url: null });

    const current = await call(currentSubscriptionEndpoint, { cookie: buyer.cookie });
    expect(current.data).toEqual({
      subscription: { status: 'active', service_id: 1, onetime: false, exists: true },
      last_invoice_finalizing: false,
    });
    const detail = await call(e.subscription, { cookie: buyer.cookie });
    expect(detail.data.subscription).toMatchObject({
      plan: { product_id: plan.id, name: '1 month', interval: 'month' },
      payment_method: { type: 'card', card: { last4: '4242', brand: 'visa' } },
      amount: plan.amount,
      cancel_at_period_end: false,
    });
    const invoices = await call(e.invoices, { cookie: buyer.cookie });
    expect(invoices.data.items).toHaveLength(1);
    expect(invoices.data.items[0]).toMatchObject({
      status: 'paid',
      total: plan.amount,
      amount_paid: plan.amount,
    });
    expect(invoices.data.items[0]?.number).toMatch(/^INV-\d{4}-\d{6}$/);

    const access = await app.db
      .select()
      .from(entitlements)
      .where(eq(entitlements.userId, buyer.user.id));
    expect(access).toHaveLength(1);
    expect(access[0]?.endsAt?.toISOString()).toBe(detail.data.subscription.current_period_end);

    const pdf = await app.inject({
      url: `/api/account/v1/billing/invoices/${invoices.data.items[0]?.invoice_id}/pdf`,
      headers: { cookie: buyer.cookie },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it("refuses another customer's invoice PDF", async () => {
    const owner = await signedInUser(app);
    await shop.buy(owner);
    const [invoice] = (await call(e.invoices, { cookie: owner.cookie })).data.items;
    const stranger = await signedInUser(app);
    const pdf = await app.inject({
      url: `/api/account/v1/billing/invoices/${invoice?.invoice_id}/pdf`,
      headers: { cookie: stranger.cookie },
    });
    expect(pdf.statusCode).toBe(404);
  });

  it.each([
    [CARDS.declined, BILLING_MESSAGES.cardDeclined],
    [CARDS.insufficientFunds, BILLING_MESSAGES.insufficientFunds],
  ])('shows the decline of %s under the card field and sells nothing', async (card, message) => {
    const buyer = await signedInUser(app);
    const answer = await shop.buy(buyer, { card });
    expect(answer.status).toBe(422);
    expect(answer.body.errors_validation).toEqual({ card: [message] });
    const current = await call(currentSubscriptionEndpoint, { cookie: buyer.cookie });
    expect(current.data.subscription).toBeNull();
    const [paid] = await queryRows<{ n: number }>(
      app.db,
      sql`select count(*)::int as n from invoices where user_id = ${buyer.user.id} and status = 'paid'`,
    );
    expect(paid?.n).toBe(0);
  });

  it('sends a card that needs confirmation to the confirmation page first', async () => {
    const buyer = await signedInUser(app);
    const answer = await shop.buy(buyer, { card: CARDS.needsConfirmation });
    expect(answer.status).toBe(200);
    expect(answer.data.status).toBe('requires_action');
    expect(answer.data.redirect_url).toMatch(/\/sandbox\/v1\/authenticate\//);
    const current = await call(currentSubscriptionEndpoint, { cookie: buyer.cookie });
    expect(current.data.subscription).toBeNull();
  });

  it('charges once for a double-clicked pay button (one idempotency key)', async () => {
    const buyer = await signedInUser(app);
    const key = randomUUID();
    const plan = await shop.plan('1 month');
    const token = await cardToken(app, CARDS.visa);
    const order = {
      cookie: buyer.cookie,
      body: {
        product_id: plan.id,
        addon_ids: [],
        payment: { service_id: 1 as const, token },
        idempotency_key: key,
        lang: 'en' as const,
      },
    };
    const answers = await Promise.all([call(e.checkout, order), call(e.checkout, order)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const [counts] = await queryRows<{ subs: number; paid: number }>(
      app.db,
      sql`select (select count(*)::int from subscriptions where user_id = ${buyer.user.id}) as subs,
                 (select count(*)::int from invoices where user_id = ${buyer.user.id} and status = 'paid') as paid`,
    );
    expect(counts).toEqual({ subs: 1, paid: 1 });
  });

  it('refuses a second subscription while one runs', async () => {
    const buyer = await signedInUser(app);
    await shop.buy(buyer);
    const again = await shop.buy(buyer);
    expect(again.status).toBe(409);
    expect(again.body.errors_info).toEqual([BILLING_MESSAGES.alreadySubscribed]);
  });

  it('refuses an order for a hidden or disabled product, or an addon as a plan', async () => {
    const buyer = await signedInUser(app);
    const [hidden] = await app.db
      .insert(products)
      .values({
        serviceId: 1,
        plan: 'old',
        name: 'Hidden',
        amount: 100,
        currency: 'USD',
        interval: 'month',
        visible: false,
      })
      .returning();
    const [disabled] = await app.db
      .insert(products)
      .values({
        serviceId: 1,
        plan: 'old',
        name: 'Disabled',
        amount: 100,
        currency: 'USD',
        interval: 'month',
        disabled: true,
      })
      .returning();
    const addon = (await shop.plan('1 month')).additionalProductId;
    for (const id of [hidden?.id, disabled?.id, addon]) {
      const answer = await call(e.quote, { body: { product_id: id as number, addon_ids: [] } });
      expect(answer.status).toBe(422);
      expect(answer.body.errors_validation).toEqual({
        product_id: [BILLING_MESSAGES.productUnavailable],
      });
    }
    const token = await cardToken(app, CARDS.visa);
    const order = await call(e.checkout, {
      cookie: buyer.cookie,
      body: {
        product_id: hidden?.id as number,
        payment: { service_id: 1, token },
        idempotency_key: randomUUID(),
      },
    });
    expect(order.status).toBe(422);
  });

  it('checks coupons: unknown, expired, used up, for other products; applies a good one', async () => {
    const plan = await shop.plan('1 year');
    await app.db.insert(coupons).values([
      { code: 'TWENTY', name: '20 % off', percentOff: 20, duration: 'once' },
      {
        code: 'OLD',
        name: 'Gone',
        percentOff: 10,
        duration: 'once',
        expiresAt: new Date('2020-01-01'),
      },
      {
        code: 'FULL',
        name: 'Used up',
        percentOff: 10,
        duration: 'once',
        maxRedemptions: 1,
        timesRedeemed: 1,
      },
      { code: 'OTHER', name: 'Other plan', amountOff: 500, currency: 'USD', duration: 'forever' },
    ]);
    const [other] = await app.db.select().from(coupons).where(eq(coupons.code, 'OTHER'));
    const month = await shop.plan('1 month');
    await app.db
      .insert(couponProducts)
      .values({ couponId: other?.id as number, productId: month.id });
    const quote = (coupon: string) => call(e.quote, { body: { product_id: plan.id, coupon } });
    expect((await quote('nope')).body.errors_validation).toEqual({
      coupon: [BILLING_MESSAGES.couponUnknown],
    });
    expect((await quote('OLD')).body.errors_validation).toEqual({
      coupon: [BILLING_MESSAGES.couponExpired],
    });
    expect((await quote('FULL')).body.errors_validation).toEqual({
      coupon: [BILLING_MESSAGES.couponUsedUp],
    });
    expect((await quote('OTHER')).body.errors_validation).toEqual({
      coupon: [BILLING_MESSAGES.couponNotForProduct],
    });
    const good = await quote('twenty');
    expect(good.data).toMatchObject({
      subtotal: plan.amount,
      discount: Math.round(plan.amount * 0.2),
      total: plan.amount - Math.round(plan.amount * 0.2),
      coupon: { code: 'TWENTY', percent_off: 20 },
    });

    const buyer = await signedInUser(app);
    const bought = await shop.buy(buyer, { plan: '1 year', coupon: 'TWENTY' });
    expect(bought.status).toBe(200);
    const [invoice] = (await call(e.invoices, { cookie: buyer.cookie })).data.items;
    expect(invoice).toMatchObject({
      discount: Math.round(plan.amount * 0.2),
      total: good.data.total,
    });
    const [redeemed] = await app.db.select().from(coupons).where(eq(coupons.code, 'TWENTY'));
    expect(redeemed?.timesRedeemed).toBe(1);
    expect(await redemptionsOf('TWENTY')).toEqual([
      { user_id: buyer.user.id, subscription_id: bought.data.subscription_id },
    ]);
  });

  it("holds a coupon's use while a payment awaits the bank: recorded once paid, given back when abandoned", async () => {
    await app.db.insert(coupons).values(
      ['HELDONE', 'HELDTWO'].map((code) => ({
        code,
        name: 'One use',
        percentOff: 50,
        duration: 'once' as const,
        maxRedemptions: 1,
      })),
    );
    const usesOf = async (code: string) =>
      (await app.db.select().from(coupons).where(eq(coupons.code, code)))[0]?.timesRedeemed;

    // Confirmed on the bank's page: the use, held meanwhile, becomes a redemption.
    const confirmed = await signedInUser(app);
    const started = await shop.buy(confirmed, {
      coupon: 'HELDONE',
      card: CARDS.needsConfirmation,
    });
    expect(started.data.status).toBe('requires_action');
    expect(await usesOf('HELDONE')).toBe(1);
    const late = await shop.buy(await signedInUser(app), { coupon: 'HELDONE' });
    expect(late.body.errors_validation).toEqual({ coupon: [BILLING_MESSAGES.couponUsedUp] });
    const done = await app.inject({
      method: 'POST',
      url: new URL(started.data.redirect_url as string).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'outcome=complete',
    });
    expect(done.statusCode).toBe(303);
    await app.queue.drain({ timeoutMs: 20_000 });
    const [subscription] = await app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, confirmed.user.id));
    expect(subscription?.status).toBe('active');
    expect(await redemptionsOf('HELDONE')).toEqual([
      { user_id: confirmed.user.id, subscription_id: subscription?.id },
    ]);
    expect(await usesOf('HELDONE')).toBe(1);

    // Abandoned: the use comes back once no payment page can still be paid, not before.
    const abandoned = await signedInUser(app);
    await shop.buy(abandoned, { coupon: 'HELDTWO', card: CARDS.needsConfirmation });
    await billingSweep(app);
    expect(await usesOf('HELDTWO')).toBe(1);
    await app.db
      .update(couponHolds)
      .set({ createdAt: new Date(app.payments.clock.now().getTime() - COUPON_HOLD_MS) })
      .where(eq(couponHolds.userId, abandoned.user.id));
    await billingSweep(app);
    expect(await usesOf('HELDTWO')).toBe(0);
    expect(await redemptionsOf('HELDTWO')).toEqual([]);
    expect((await shop.buy(await signedInUser(app), { coupon: 'HELDTWO' })).status).toBe(200);
    expect(await usesOf('HELDTWO')).toBe(1);
  });

  it('cancels at period end, then resumes', async () => {
    const buyer = await signedInUser(app);
    await shop.buy(buyer);
    const canceled = await call(e.cancel, { cookie: buyer.cookie });
    expect(canceled.status).toBe(200);
    expect(canceled.data.subscription).toMatchObject({
      status: 'canceled',
      cancel_at_period_end: true,
    });
    const resumed = await call(e.resume, { cookie: buyer.cookie });
    expect(resumed.data.subscription).toMatchObject({
      status: 'active',
      cancel_at_period_end: false,
    });
    const resumedAgain = await call(e.resume, { cookie: buyer.cookie });
    expect(resumedAgain.status).toBe(409);
  });

  it('pauses a card subscription and continues it; a paused one cannot be canceled', async () => {
    const buyer = await signedInUser(app);
    await shop.buy(buyer);
    const paused = await call(e.pause, { cookie: buyer.cookie });
    expect(paused.data.subscription.status).toBe('paused');
    expect((await call(e.cancel, { cookie: buyer.cookie })).status).toBe(409);
    const continued = await call(e.continue, { cookie: buyer.cookie });
    expect(continued.data.subscription.status).toBe('active');
  });

  it('answers 404 to subscription actions of a customer who has none', async () => {
    const nobody = await signedInUser(app);
    for (const endpoint of [e.cancel, e.resume, e.pause, e.continue]) {
      expect((await call(endpoint, { cookie: nobody.cookie })).status).toBe(404);
    }
    expect((await call(e.subscription, { cookie: nobody.cookie })).status).toBe(404);
    expect((await call(e.invoices, { cookie: nobody.cookie })).data.items).toEqual([]);
  });

  it('previews an upgrade with proration, then charges what it showed', async () => {
    const buyer = await signedInUser(app);
    await shop.buy(buyer, { plan: '1 year' });
    const family = await shop.plan('Family, 1 year');
    const preview = await call(e.changePreview, {
      cookie: buyer.cookie,
      query: { product_id: family.id },
    });
    expect(preview.status).toBe(200);
    expect(preview.data.due).toBe(Math.max(preview.data.charge - preview.data.credit, 0));
    expect(preview.data.due).toBeGreaterThan(0);
    expect(preview.data.next_amount).toBe(family.amount);
    const changed = await call(e.change, {
      cookie: buyer.cookie,
      body: { product_id: family.id, idempotency_key: randomUUID() },
    });
    expect(changed.status).toBe(200);
    const detail = await call(e.subscription, { cookie: buyer.cookie });
    expect(detail.data.subscription.plan.product_id).toBe(family.id);
    const invoices = (await call(e.invoices, { cookie: buyer.cookie })).data.items;
    expect(invoices[0]).toMatchObject({ status: 'paid', total: preview.data.due });
  });

  it('changes a monthly plan to the yearly one, restarting the cycle; an addon keeps its period', async () => {
    const buyer = await signedInUser(app);
    await shop.buy(buyer);
    const monthly = await shop.plan('1 month');
    const yearly = await shop.plan('1 year');
    const preview = await call(e.changePreview, {
      cookie: buyer.cookie,
      query: { product_id: yearly.id },
    });
    expect(preview.status).toBe(200);
    // Just bought: almost the whole month is unused, credited against a whole year.
    expect(preview.data.credit).toBeGreaterThan(0);
    expect(preview.data.credit).toBeLessThanOrEqual(monthly.amount);
    expect(preview.data.credit).toBeGreaterThanOrEqual(monthly.amount - 1);
    expect(preview.data.charge).toBe(yearly.amount);
    expect(preview.data.due).toBe(yearly.amount - preview.data.credit);
    expect(preview.data.next_amount).toBe(yearly.amount);
    const aboutAYear = (iso: string | null | undefined) => {
      const days = (Date.parse(iso ?? '') - app.payments.clock.now().getTime()) / 86_400_000;
      expect(days).toBeGreaterThan(364);
      expect(days).toBeLessThanOrEqual(366);
    };
    aboutAYear(preview.data.current_period_end);

    const changed = await call(e.change, {
      cookie: buyer.cookie,
      body: { product_id: yearly.id, idempotency_key: randomUUID() },
    });
    expect(changed.status).toBe(200);
    expect(changed.data.status).toBe('completed');
    const detail = await call(e.subscription, { cookie: buyer.cookie });
    expect(detail.data.subscription.plan).toMatchObject({
      product_id: yearly.id,
      interval: 'year',
    });
    aboutAYear(detail.data.subscription.current_period_end);
    const invoices = (await call(e.invoices, { cookie: buyer.cookie })).data.items;
    expect(invoices[0]?.status).toBe('paid');
    expect(Math.abs((invoices[0]?.total ?? 0) - preview.data.due)).toBeLessThanOrEqual(1);

    const monthlyAddon = (await shop.plan('1 month')).additionalProductId as number;
    const mixed = await call(e.quote, {
      body: { product_id: yearly.id, addon_ids: [monthlyAddon] },
    });
    expect(mixed.status).toBe(422);
    expect(mixed.body.errors_validation).toEqual({
      addon_ids: [BILLING_MESSAGES.productUnavailable],
    });
  });

  it('takes one order at a time per customer: two tabs with two keys charge once', async () => {
    const buyer = await signedInUser(app);
    const answers = await Promise.all([shop.buy(buyer), shop.buy(buyer)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const [counts] = await queryRows<{ paid: number }>(
      app.db,
      sql`select count(*)::int as paid from invoices where user_id = ${buyer.user.id} and status = 'paid'`,
    );
    expect(counts?.paid).toBe(1);
  });

  it('never lets a capped coupon be redeemed beyond its cap, even at once', async () => {
    await app.db.insert(coupons).values({
      code: 'ONLYONE',
      name: 'One use',
      percentOff: 50,
      duration: 'once',
      maxRedemptions: 1,
    });
    const buyers = await Promise.all([1, 2, 3].map(() => signedInUser(app)));
    const answers = await Promise.all(
      buyers.map((buyer) => shop.buy(buyer, { coupon: 'ONLYONE' })),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.status !== 200)) {
      expect(refused.body.errors_validation).toEqual({ coupon: [BILLING_MESSAGES.couponUsedUp] });
    }
    const [coupon] = await app.db.select().from(coupons).where(eq(coupons.code, 'ONLYONE'));
    expect(coupon?.timesRedeemed).toBe(1);
    const declined = await signedInUser(app);
    await app.db.insert(coupons).values({
      code: 'ONEMORE',
      name: 'One use',
      percentOff: 50,
      duration: 'once',
      maxRedemptions: 1,
    });
    expect((await shop.buy(declined, { coupon: 'ONEMORE', card: CARDS.declined })).status).toBe(
      422,
    );
    const [kept] = await app.db.select().from(coupons).where(eq(coupons.code, 'ONEMORE'));
    expect(kept?.timesRedeemed).toBe(0);
  });

  it('keeps cards: the default first, set default, refuses deleting the one renewals use', async () => {
    const buyer = await signedInUser(app);
    await shop.buy(buyer);
    const added = await call(e.cardCreate, {
      cookie: buyer.cookie,
      body: { token: await cardToken(app, '5555555555554444') },
    });
    expect(added.data.items.map((card) => [card.last4, card.default])).toEqual([
      ['4242', true],
      ['4444', false],
    ]);
    const inUse = await call(e.cardDelete, {
      cookie: buyer.cookie,
      body: { card_id: added.data.items[0]?.card_id as string },
    });
    expect(inUse.status).toBe(422);
    expect(inUse.body.errors_validation).toEqual({ card_id: [BILLING_MESSAGES.cardInUse] });
    const newDefault = added.data.items[1]?.card_id as string;
    const sandbox = app.payments.get('sandbox');
    if (!sandbox) throw new Error('no sandbox gateway');
    const [bought] = await app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, buyer.user.id));
    const beforeChange = await sandbox.fetchSubscription(bought?.gatewayRef as string);
    if (!beforeChange) throw new Error('the sandbox lost the subscription');
    const set = await call(e.setDefaultSource, {
      cookie: buyer.cookie,
      body: { card_id: newDefault },
    });
    expect(set.status).toBe(200);
    expect(set.data.user.default_source).toBe(newDefault);
    expect(set.data.items[0]).toMatchObject({ card_id: newDefault, default: true });
    // Late reports from before the change bring back neither the old default card nor the
    // old card on the subscription (it would be "in use" again).
    const [customer] = await app.db
      .select()
      .from(gatewayCustomers)
      .where(eq(gatewayCustomers.userId, buyer.user.id));
    await applyAnswer(app, sandbox, { subscription: beforeChange });
    await applyAnswer(app, sandbox, {
      card: {
        ref: added.data.items[0]?.card_id as string,
        customerRef: customer?.customerRef as string,
        brand: 'visa',
        last4: '4242',
        expMonth: 12,
        expYear: 2031,
        isDefault: true,
        updatedAt: new Date('2020-01-01T00:00:00Z'),
      },
    });
    const after = await call(e.cards, { cookie: buyer.cookie });
    expect(after.data.items[0]).toMatchObject({ card_id: newDefault, default: true });
    const [renewing] = await app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, buyer.user.id));
    expect(renewing?.paymentMethodRef).toBe(newDefault);
    const removed = await call(e.cardDelete, {
      cookie: buyer.cookie,
      body: { card_id: added.data.items[0]?.card_id as string },
    });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.data.items.map((card) => card.last4)).toEqual(['4444']);
    const stranger = await signedInUser(app);
    const theft = await call(e.setDefaultSource, {
      cookie: stranger.cookie,
      body: { card_id: newDefault },
    });
    expect(theft.status).toBe(404);
  });

  it("changes the default card while the gateway's card events are applied alongside", async () => {
    // PostgreSQL runs these transactions at once (PGlite one after another): a change of
    // default writes every card, and the events write them in another order.
    const buyer = await signedInUser(app);
    await shop.buy(buyer);
    const added = await call(e.cardCreate, {
      cookie: buyer.cookie,
      body: { token: await cardToken(app, '5555555555554444') },
    });
    const sandbox = app.payments.get('sandbox');
    if (!sandbox) throw new Error('no sandbox gateway');
    const [customer] = await app.db
      .select()
      .from(gatewayCustomers)
      .where(eq(gatewayCustomers.userId, buyer.user.id));
    const cards = added.data.items.map((card) => ({
      ref: card.card_id,
      customerRef: customer?.customerRef as string,
      brand: card.brand,
      last4: card.last4,
      expMonth: 12,
      expYear: 2031,
    }));
    for (let round = 0; round < 4; round++) {
      const chosen = cards[(round + 1) % 2]?.ref as string;
      let settled = false;
      const setting = call(e.setDefaultSource, {
        cookie: buyer.cookie,
        body: { card_id: chosen },
      }).finally(() => {
        settled = true;
      });
      // Bounded: PGlite runs one transaction at a time, and a loop that always has the next
      // event waiting could keep the change from its turn.
      for (let batch = 0; batch < 8 && !settled; batch++) {
        await Promise.all(
          cards.map((card) =>
            applyAnswer(app, sandbox, {
              card: { ...card, isDefault: card.ref === chosen, updatedAt: new Date() },
            }),
          ),
        );
      }
      expect((await setting).status).toBe(200);
      const listed = await call(e.cards, { cookie: buyer.cookie });
      expect(listed.data.items.filter((card) => card.default).map((card) => card.card_id)).toEqual([
        chosen,
      ]);
    }
  });

  it('keeps the billing address and prints it on the next invoice', async () => {
    const buyer = await signedInUser(app);
    const address = {
      name: 'Ирина Петрова',
      line1: 'Тверская 1',
      city: 'Москва',
      postal_code: '125009',
      country: 'RU',
    };
    const saved = await call(e.billingAddressUpdate, { cookie: buyer.cookie, body: address });
    expect(saved.status).toBe(200);
    const read = await call(e.billingAddress, { cookie: buyer.cookie });
    expect(read.data.billing_address).toMatchObject(address);
    const bad = await call(e.billingAddressUpdate, {
      cookie: buyer.cookie,
      body: { country: 'Russia' },
    });
    expect(bad.status).toBe(422);
  });
});
