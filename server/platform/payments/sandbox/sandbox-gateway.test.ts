import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { prorate } from '#shared/billing/pricing.ts';
import { sandboxObjects } from '../../../db/schema/sandbox.ts';
import type { App } from '../../../http/types.ts';
import { openSandbox, type SandboxKit } from '../../../test/sandbox-kit.ts';
import type { BillingClock } from '../billing-clock.ts';
import {
  type CardVault,
  type GatewayPrice,
  GatewayRequestError,
  type PaymentGateway,
  type StartSubscriptionInput,
} from '../gateway.ts';
import { addIntervals } from './periods.ts';
import { SandboxRequestError } from './sandbox-gateway.ts';

// The gateway's calls on a real database, as our billing module makes them.

const DAY_MS = 86_400_000;
const MONTHLY: GatewayPrice = {
  productId: 11,
  ref: null,
  name: 'VPN monthly',
  amount: 999,
  currency: 'USD',
  interval: 'month',
  intervalCount: 1,
  onetime: false,
};
const PRO: GatewayPrice = { ...MONTHLY, productId: 12, name: 'VPN pro monthly', amount: 1999 };
const YEARLY: GatewayPrice = {
  ...MONTHLY,
  productId: 15,
  name: 'VPN yearly',
  amount: 9999,
  interval: 'year',
};
const ADDON: GatewayPrice = { ...MONTHLY, productId: 13, name: 'Dedicated IP', amount: 300 };
const LIFETIME: GatewayPrice = {
  ...MONTHLY,
  productId: 14,
  name: 'VPN 3 months once',
  amount: 2500,
  intervalCount: 3,
  onetime: true,
};

let app: App;
let gateway: PaymentGateway;
let cards: CardVault;
let clock: BillingClock;
let tokenFor: SandboxKit['tokenFor'];
let user = 0;

beforeAll(async () => {
  ({ app, gateway, cards, clock, tokenFor } = await openSandbox());
});

async function newCustomer(): Promise<string> {
  user += 1;
  return gateway.ensureCustomer({ userId: user, email: `u${user}@example.com`, name: `U ${user}` });
}

function startInput(customerRef: string, extra: Partial<StartSubscriptionInput>) {
  return {
    customerRef,
    items: [MONTHLY],
    discount: null,
    paymentToken: null,
    paymentMethodRef: null,
    returnUrl: '/en/billing/order?step=done',
    cancelUrl: '/en/billing/order',
    idempotencyKey: `key-${customerRef}-${Math.random()}`,
    metadata: { userId: String(user) },
    ...extra,
  } satisfies StartSubscriptionInput;
}

async function subscribe(number: string, extra: Partial<StartSubscriptionInput> = {}) {
  const customer = await newCustomer();
  const outcome = await gateway.startSubscription(
    startInput(customer, { paymentToken: await tokenFor(number), ...extra }),
  );
  return { customer, outcome };
}

async function subscribed(
  number = '4242424242424242',
  extra: Partial<StartSubscriptionInput> = {},
) {
  const { customer, outcome } = await subscribe(number, extra);
  if (outcome.kind !== 'completed')
    throw new Error(`expected a completed start, got ${outcome.kind}`);
  return { customer, ...outcome };
}

async function objectsOf(kind: string, customer: string) {
  return app.db
    .select({ data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(and(eq(sandboxObjects.kind, kind), eq(sandboxObjects.customerId, customer)));
}

describe('starting a subscription with each test card', () => {
  it.each([
    ['4242424242424242', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['6011111111111117', 'discover'],
  ])(
    '%s succeeds: active, first invoice paid, the card saved as default',
    async (number, brand) => {
      const { customer, subscription, invoice } = await subscribed(number);
      expect(subscription).toMatchObject({
        status: 'active',
        customerRef: customer,
        onetime: false,
        currency: 'USD',
        items: [{ productId: MONTHLY.productId, quantity: 1, amount: 999 }],
        cancelAtPeriodEnd: false,
        metadata: { userId: String(user) },
      });
      const start = subscription.currentPeriodStart?.getTime() ?? 0;
      expect(subscription.currentPeriodEnd?.getTime()).toBeGreaterThan(start + 27 * DAY_MS);
      expect(invoice).toMatchObject({
        status: 'paid',
        reason: 'subscription_create',
        subscriptionRef: subscription.ref,
        total: 999,
        amountPaid: 999,
        attemptCount: 1,
      });
      const saved = await cards.list(customer);
      expect(saved).toEqual([expect.objectContaining({ brand, isDefault: true, expYear: 2040 })]);
      expect(subscription.paymentMethodRef).toBe(saved[0]?.ref);
    },
  );

  it.each([
    ['4000000000000002', 'card_declined'],
    ['4000000000009995', 'insufficient_funds'],
    ['4000000000000341', 'card_declined'],
  ])(
    '%s is declined with %s, leaving no subscription, paid invoice or card',
    async (number, code) => {
      const { customer, outcome } = await subscribe(number);
      expect(outcome).toEqual({ kind: 'declined', decline: { code, message: expect.any(String) } });
      const subscriptions = await objectsOf('subscription', customer);
      expect(subscriptions.map((row) => row.data.status)).not.toContain('active');
      const invoices = await objectsOf('invoice', customer);
      expect(invoices.map((row) => row.data.status)).not.toContain('paid');
      expect(await cards.list(customer)).toEqual([]);
    },
  );

  it('4000 0027 6000 3184 asks for confirmation on our page first', async () => {
    const { outcome } = await subscribe('4000002760003184');
    expect(outcome).toEqual({
      kind: 'redirect',
      url: expect.stringMatching(/^http:\/\/localhost:\d+\/sandbox\/v1\/authenticate\/pay_\w+$/),
      subscription: null,
    });
  });

  it('charges a saved card by its ref, or the default card without either', async () => {
    const { customer } = await subscribed();
    const [card] = await cards.list(customer);
    const byRef = await gateway.startSubscription(
      startInput(customer, { paymentMethodRef: card?.ref ?? null, items: [PRO] }),
    );
    expect(byRef).toMatchObject({
      kind: 'completed',
      subscription: { paymentMethodRef: card?.ref },
    });
    const byDefault = await gateway.startSubscription(startInput(customer, {}));
    expect(byDefault).toMatchObject({ kind: 'completed', invoice: { status: 'paid' } });
    const stranger = await newCustomer();
    // Another customer's card is unknown to this one: the caller's error, not an outage.
    const refused = gateway.startSubscription(
      startInput(stranger, { paymentMethodRef: card?.ref ?? null }),
    );
    await expect(refused).rejects.toBeInstanceOf(GatewayRequestError);
    await expect(refused).rejects.toMatchObject({ kind: 'not_found', code: 'resource_missing' });
  });

  it('bills the plan and its addons, with a discount for its periods', async () => {
    const { subscription, invoice } = await subscribed('4242424242424242', {
      items: [MONTHLY, ADDON],
      discount: { code: 'HALF', percentOff: 50, amountOff: null, periods: 2 },
    });
    expect(invoice).toMatchObject({
      subtotal: 1299,
      discount: 650,
      total: 649,
      discountCode: 'HALF',
    });
    expect(invoice.lines.map((line) => [line.productId, line.amount])).toEqual([
      [MONTHLY.productId, 999],
      [ADDON.productId, 300],
    ]);
    expect(subscription).toMatchObject({ discountCode: 'HALF', discountPeriodsLeft: 1 });
    const once = await subscribed('4242424242424242', {
      discount: { code: 'TAKE2', percentOff: null, amountOff: 200, periods: 1 },
    });
    expect(once.invoice).toMatchObject({ discount: 200, total: 799 });
    expect(once.subscription).toMatchObject({ discountCode: null, discountPeriodsLeft: null });
  });

  it('sells a one-time product as one paid invoice for its period', async () => {
    const { subscription, invoice } = await subscribed('4242424242424242', { items: [LIFETIME] });
    expect(subscription).toMatchObject({ onetime: true, status: 'active' });
    expect(invoice).toMatchObject({ total: 2500, status: 'paid' });
    const length =
      (subscription.currentPeriodEnd?.getTime() ?? 0) -
      (subscription.currentPeriodStart?.getTime() ?? 0);
    expect(length).toBeGreaterThan(88 * DAY_MS);
  });

  it('makes one subscription and one charge for one idempotency key, even at once', async () => {
    const customer = await newCustomer();
    const input = startInput(customer, {
      paymentToken: await tokenFor('4242424242424242'),
      idempotencyKey: `same-${customer}`,
    });
    const [first, second] = await Promise.all([
      gateway.startSubscription(input),
      gateway.startSubscription(input),
    ]);
    const third = await gateway.startSubscription(input);
    expect(first.kind).toBe('completed');
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect(await objectsOf('payment', customer)).toHaveLength(1);
    expect(await objectsOf('subscription', customer)).toHaveLength(1);
  });

  it('answers a declined key with the same decline, charging nothing more', async () => {
    const customer = await newCustomer();
    const input = startInput(customer, { paymentToken: await tokenFor('4000000000000341') });
    const first = await gateway.startSubscription(input);
    expect(first.kind).toBe('declined');
    expect(await gateway.startSubscription(input)).toEqual(first);
    expect(await objectsOf('payment', customer)).toHaveLength(1);
  });

  it('spends a token once', async () => {
    const customer = await newCustomer();
    const token = await tokenFor('4242424242424242');
    await gateway.startSubscription(startInput(customer, { paymentToken: token }));
    await expect(
      gateway.startSubscription(startInput(customer, { paymentToken: token })),
    ).rejects.toMatchObject({ code: 'token_used' });
  });
});

describe('customers, prices and cards', () => {
  it('makes one customer per user and one price per product, amount, currency and interval', async () => {
    const input = { userId: 9001, email: 'a@example.com', name: 'A' };
    const [a, b] = await Promise.all([
      gateway.ensureCustomer(input),
      gateway.ensureCustomer(input),
    ]);
    expect(a).toMatch(/^cus_/);
    expect(b).toBe(a);
    const price = await gateway.ensurePrice(MONTHLY);
    expect(price).toMatch(/^price_/);
    expect(await gateway.ensurePrice(MONTHLY)).toBe(price);
    expect(await gateway.ensurePrice({ ...MONTHLY, amount: 1099 })).not.toBe(price);
    expect(await gateway.ensurePrice({ ...MONTHLY, interval: 'year' })).not.toBe(price);
  });

  it('adds, lists (default first), updates, re-defaults and removes cards', async () => {
    const customer = await newCustomer();
    const visa = await cards.add(customer, await tokenFor('4242424242424242'), {
      makeDefault: false,
    });
    if (visa.kind !== 'added') throw new Error('expected the card added');
    // The first card is the default whatever was asked: renewals need one.
    expect(visa.card).toMatchObject({ brand: 'visa', last4: '4242', isDefault: true });
    const master = await cards.add(customer, await tokenFor('5555555555554444'), {
      makeDefault: false,
    });
    if (master.kind !== 'added') throw new Error('expected the card added');
    expect((await cards.list(customer)).map((card) => card.last4)).toEqual(['4242', '4444']);
    const listed = await cards.setDefault(customer, master.card.ref);
    expect(listed.map((card) => [card.last4, card.isDefault])).toEqual([
      ['4444', true],
      ['4242', false],
    ]);
    expect(await cards.update(visa.card.ref, { expMonth: 3, expYear: 33 })).toMatchObject({
      expMonth: 3,
      expYear: 2033,
    });
    await expect(
      cards.update(visa.card.ref, { expMonth: 1, expYear: 2001 }),
    ).rejects.toBeInstanceOf(SandboxRequestError);
    await cards.remove(master.card.ref);
    expect(await cards.list(customer)).toEqual([
      expect.objectContaining({ last4: '4242', isDefault: true }),
    ]);
  });

  it('refuses to save a card the issuer declines; 0341 saves fine', async () => {
    const customer = await newCustomer();
    expect(
      await cards.add(customer, await tokenFor('4000000000000002'), { makeDefault: true }),
    ).toEqual({ kind: 'declined', decline: expect.objectContaining({ code: 'card_declined' }) });
    expect(
      await cards.add(customer, await tokenFor('4000000000000341'), { makeDefault: true }),
    ).toMatchObject({ kind: 'added', card: { last4: '0341' } });
  });
});

describe('plan changes', () => {
  it('prorates: the unused part credited, the rest of the period charged on the new plan', async () => {
    const { subscription } = await subscribed();
    await clock.advance(10 * DAY_MS);
    const change = { subscriptionRef: subscription.ref, items: [PRO], idempotencyKey: 'preview' };
    const before = clock.now();
    const preview = await gateway.previewChange(change);
    const after = clock.now();
    const periodStart = subscription.currentPeriodStart ?? new Date();
    const periodEnd = subscription.currentPeriodEnd ?? new Date();
    const around = [before, after].map((at) =>
      prorate({ currentAmount: 999, newAmount: 1999, periodStart, periodEnd, at }),
    );
    expect(around).toContainEqual({
      credit: preview.credit,
      charge: preview.charge,
      due: preview.due,
    });
    expect(preview).toMatchObject({ currency: 'USD', nextAmount: 1999 });
    expect(preview.due).toBe(preview.charge - preview.credit);
    expect(preview.credit).toBeGreaterThan(0);

    const changed = await gateway.changePlan({
      ...change,
      idempotencyKey: `up-${subscription.ref}`,
    });
    if (changed.kind !== 'completed' || !changed.invoice) throw new Error('expected a paid change');
    expect(changed.subscription.items.map((item) => item.productId)).toEqual([PRO.productId]);
    expect(changed.subscription.currentPeriodEnd).toEqual(subscription.currentPeriodEnd);
    expect(changed.invoice).toMatchObject({ reason: 'subscription_update', status: 'paid' });
    const [credit, charge] = changed.invoice.lines;
    expect(credit).toMatchObject({ proration: true, productId: MONTHLY.productId });
    expect(charge).toMatchObject({ proration: true, productId: PRO.productId });
    expect(credit?.amount).toBeLessThan(0);
    expect((charge?.amount ?? 0) + (credit?.amount ?? 0)).toBe(changed.invoice.total);
    expect(Math.abs(changed.invoice.total - preview.due)).toBeLessThanOrEqual(1);
  });

  it('restarts the cycle on a change of period: unused time credited against a whole year', async () => {
    const { customer, subscription } = await subscribed();
    await clock.advance(10 * DAY_MS);
    const change = { subscriptionRef: subscription.ref, items: [YEARLY], idempotencyKey: 'p' };
    const cycle = async () => {
      const [row] = await objectsOf('subscription', customer);
      const data = row?.data as { interval: string; intervalCount: number; cycleAnchor: string };
      return {
        interval: data.interval,
        intervalCount: data.intervalCount,
        anchor: data.cycleAnchor,
      };
    };
    const before = clock.now();
    const preview = await gateway.previewChange(change);
    const periodStart = subscription.currentPeriodStart ?? new Date();
    const periodEnd = subscription.currentPeriodEnd ?? new Date();
    const { credit } = prorate({
      currentAmount: 999,
      newAmount: 0,
      periodStart,
      periodEnd,
      at: before,
    });
    expect(Math.abs(preview.credit - credit)).toBeLessThanOrEqual(1);
    expect(preview.credit).toBeGreaterThan(0);
    expect(preview).toMatchObject({ currency: 'USD', charge: 9999, nextAmount: 9999 });
    expect(preview.due).toBe(9999 - preview.credit);
    const after = clock.now();
    const end = preview.periodEnd?.getTime() ?? 0;
    expect(end).toBeGreaterThanOrEqual(addIntervals(before, 'year', 1).getTime());
    expect(end).toBeLessThanOrEqual(addIntervals(after, 'year', 1).getTime());

    const changed = await gateway.changePlan({
      ...change,
      idempotencyKey: `y-${subscription.ref}`,
    });
    if (changed.kind !== 'completed' || !changed.invoice) throw new Error('expected a paid change');
    const now = changed.subscription.currentPeriodStart ?? new Date(0);
    expect(now.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(changed.subscription.currentPeriodEnd).toEqual(addIntervals(now, 'year', 1));
    expect(await cycle()).toEqual({
      interval: 'year',
      intervalCount: 1,
      anchor: now.toISOString(),
    });
    expect(changed.subscription.items.map((item) => item.productId)).toEqual([YEARLY.productId]);
    expect(changed.invoice).toMatchObject({ reason: 'subscription_update', status: 'paid' });
    const [unused, year] = changed.invoice.lines;
    expect(unused).toMatchObject({ proration: true, productId: MONTHLY.productId });
    expect(unused?.amount).toBeLessThan(0);
    expect(year).toMatchObject({ proration: false, productId: YEARLY.productId, amount: 9999 });
    expect(Math.abs(changed.invoice.total - preview.due)).toBeLessThanOrEqual(1);

    // And back: a year barely begun pays for a month with credit to spare, so nothing is due.
    const back = await gateway.changePlan({
      subscriptionRef: subscription.ref,
      items: [MONTHLY],
      idempotencyKey: `m-${subscription.ref}`,
    });
    expect(back).toMatchObject({ kind: 'completed', invoice: null });
    if (back.kind !== 'completed') throw new Error('expected a completed change');
    const restarted = back.subscription.currentPeriodStart ?? new Date(0);
    expect(back.subscription.currentPeriodEnd).toEqual(addIntervals(restarted, 'month', 1));
    expect(await cycle()).toMatchObject({ interval: 'month', anchor: restarted.toISOString() });
  });

  it('changes down with nothing to pay and no invoice', async () => {
    const { subscription } = await subscribed('4242424242424242', { items: [PRO] });
    const changed = await gateway.changePlan({
      subscriptionRef: subscription.ref,
      items: [MONTHLY],
      idempotencyKey: `down-${subscription.ref}`,
    });
    expect(changed).toMatchObject({ kind: 'completed', invoice: null });
  });

  it('keeps the plan when the charge is declined', async () => {
    const { customer, subscription } = await subscribed();
    await cards.add(customer, await tokenFor('4000000000000341'), { makeDefault: true });
    const input = {
      subscriptionRef: subscription.ref,
      items: [PRO],
      idempotencyKey: `declined-${subscription.ref}`,
    };
    expect(await gateway.changePlan(input)).toMatchObject({
      kind: 'declined',
      decline: { code: 'card_declined' },
    });
    expect(await gateway.changePlan(input)).toMatchObject({ kind: 'declined' });
    const now = await gateway.fetchSubscription(subscription.ref);
    expect(now?.items.map((item) => item.productId)).toEqual([MONTHLY.productId]);
    const charges = (await objectsOf('payment', customer)).filter(
      (row) => row.data.status === 'failed',
    );
    expect(charges).toHaveLength(1);
  });
});

describe('cancel, resume, pause and refunds', () => {
  it('cancels at period end (§4 canceled, still running) and resumes', async () => {
    const { subscription } = await subscribed();
    const canceled = await gateway.cancel(subscription.ref, { atPeriodEnd: true });
    expect(canceled).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: true, endedAt: null });
    expect(canceled.canceledAt).toBeInstanceOf(Date);
    expect(canceled.updatedAt.getTime()).toBeGreaterThan(subscription.updatedAt.getTime());
    expect(await gateway.resume(subscription.ref)).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: false,
      canceledAt: null,
    });
  });

  it('cancels now (expired), and refunded once its last payment is given back in full', async () => {
    const { customer, subscription } = await subscribed();
    expect(await gateway.cancel(subscription.ref, { atPeriodEnd: false })).toMatchObject({
      status: 'expired',
    });
    const [payment] = await objectsOf('payment', customer);
    const paymentRef = String(payment?.data.id);
    expect(await gateway.refund(paymentRef, { amount: 400, reason: 'requested' })).toMatchObject({
      amount: 400,
      currency: 'USD',
      paymentRef,
      reason: 'requested',
    });
    expect((await gateway.fetchSubscription(subscription.ref))?.status).toBe('expired');
    await expect(gateway.refund(paymentRef, { amount: 600 })).rejects.toMatchObject({
      code: 'refund_too_large',
    });
    await expect(gateway.refund(paymentRef, { amount: 0 })).rejects.toBeInstanceOf(
      SandboxRequestError,
    );
    expect(await gateway.refund(paymentRef, {})).toMatchObject({ amount: 599 });
    await expect(gateway.refund(paymentRef, { amount: 1 })).rejects.toMatchObject({
      code: 'refund_too_large',
    });
    expect((await gateway.fetchSubscription(subscription.ref))?.status).toBe('refunded');
    const [invoice] = await objectsOf('invoice', customer);
    expect(await gateway.fetchInvoice(String(invoice?.data.id))).toMatchObject({
      amountPaid: 999,
      amountRefunded: 999,
      status: 'paid',
    });
  });

  it('pauses and unpauses', async () => {
    const { subscription } = await subscribed();
    const paused = await gateway.pause(subscription.ref);
    expect(paused).toMatchObject({ status: 'paused' });
    expect(paused.pausedAt).toBeInstanceOf(Date);
    expect(await gateway.unpause(subscription.ref)).toMatchObject({
      status: 'active',
      pausedAt: null,
    });
  });

  it('refuses actions the state does not allow', async () => {
    const { subscription } = await subscribed();
    await gateway.cancel(subscription.ref, { atPeriodEnd: false });
    await expect(gateway.pause(subscription.ref)).rejects.toMatchObject({ code: 'invalid_state' });
    await expect(gateway.endForNonPayment(subscription.ref)).rejects.toMatchObject({
      code: 'invalid_state',
    });
    expect(await gateway.fetchSubscription('sub_missing')).toBeNull();
  });
});
