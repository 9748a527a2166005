import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { sandboxObjects } from '../../../db/schema/sandbox.ts';
import type { App } from '../../../http/types.ts';
import { openSandbox, type SandboxKit } from '../../../test/sandbox-kit.ts';
import { advanceTestClock } from '../../../test/test-clock.ts';
import type { BillingClock } from '../billing-clock.ts';
import type {
  CardVault,
  GatewayPrice,
  PaymentGateway,
  StartSubscriptionInput,
} from '../gateway.ts';
import type { SandboxInvoice } from './sandbox-objects.ts';

// Renewals as the test clock moves: each test starts its subscription at the clock's "now",
// which earlier tests have moved on.

const DAY_MS = 86_400_000;
const PLAN: GatewayPrice = {
  productId: 31,
  ref: null,
  name: 'VPN monthly',
  amount: 999,
  currency: 'EUR',
  interval: 'month',
  intervalCount: 1,
  onetime: false,
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

async function subscribed(extra: Partial<StartSubscriptionInput> = {}) {
  user += 1;
  const customerRef = await gateway.ensureCustomer({
    userId: user,
    email: `n${user}@example.com`,
    name: 'N',
  });
  const outcome = await gateway.startSubscription({
    customerRef,
    items: [PLAN],
    discount: null,
    paymentToken: await tokenFor('4242424242424242'),
    paymentMethodRef: null,
    returnUrl: '/en/billing',
    cancelUrl: '/en/billing',
    idempotencyKey: `renewal-${user}`,
    metadata: { userId: String(user) },
    ...extra,
  });
  if (outcome.kind !== 'completed') throw new Error(`expected a paid start, got ${outcome.kind}`);
  return { customerRef, subscription: outcome.subscription };
}

/** Moves the clock as the test-clock route does, answering once renewals have run. */
async function advanceDays(days: number) {
  const response = await advanceTestClock(app, { days });
  expect(response.statusCode).toBe(200);
}

async function cycleInvoices(subscriptionRef: string): Promise<SandboxInvoice[]> {
  const rows = await app.db
    .select({ data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(
      and(
        eq(sandboxObjects.kind, 'invoice'),
        sql`${sandboxObjects.data}->>'subscription' = ${subscriptionRef}`,
        sql`${sandboxObjects.data}->>'reason' = 'subscription_cycle'`,
      ),
    )
    // By the period each bills: a catch-up makes its invoices in one transaction, where
    // PostgreSQL's clock (created_at) stands still.
    .orderBy(sql`${sandboxObjects.data}->>'periodStart'`, sandboxObjects.createdAt);
  return rows.map((row) => row.data as unknown as SandboxInvoice);
}

describe('renewals on the test clock', () => {
  it('renews a month on: a paid subscription_cycle invoice for the next period', async () => {
    const { subscription } = await subscribed();
    await advanceDays(31);
    const [renewal, ...more] = await cycleInvoices(subscription.ref);
    expect(more).toEqual([]);
    expect(renewal).toMatchObject({
      status: 'paid',
      total: 999,
      amountPaid: 999,
      periodStart: subscription.currentPeriodEnd?.toISOString(),
    });
    const renewed = await gateway.fetchSubscription(subscription.ref);
    expect(renewed).toMatchObject({ status: 'active' });
    expect(renewed?.currentPeriodStart).toEqual(subscription.currentPeriodEnd);
    expect(renewed?.currentPeriodEnd?.toISOString()).toBe(renewal?.periodEnd);
  });

  it('catches up period by period, discounting while periods are left', async () => {
    const { subscription } = await subscribed({
      discount: { code: 'TENOFF', percentOff: 10, amountOff: null, periods: 2 },
    });
    await advanceDays(95);
    const renewals = await cycleInvoices(subscription.ref);
    expect(renewals.map((invoice) => [invoice.total, invoice.discountCode])).toEqual([
      [899, 'TENOFF'],
      [999, null],
      [999, null],
    ]);
  });

  it('renews once when two sweeps run at the same time', async () => {
    const { subscription } = await subscribed();
    await Promise.all([clock.advance(31 * DAY_MS), clock.advance(0), clock.advance(0)]);
    expect(await cycleInvoices(subscription.ref)).toHaveLength(1);
  });

  it('a declined renewal puts it on hold; paying with a good card makes it active from now', async () => {
    const { customerRef, subscription } = await subscribed();
    const failing = await cards.add(customerRef, await tokenFor('4000000000000341'), {
      makeDefault: true,
    });
    if (failing.kind !== 'added') throw new Error('0341 attaches');
    expect((await gateway.fetchSubscription(subscription.ref))?.paymentMethodRef).toBe(
      failing.card.ref,
    );
    await advanceDays(31);
    const [open] = await cycleInvoices(subscription.ref);
    expect(open).toMatchObject({ status: 'open', attemptCount: 1, lastFailure: 'card_declined' });
    expect(await gateway.fetchSubscription(subscription.ref)).toMatchObject({ status: 'on_hold' });
    // The sandbox does not retry by itself: our dunning does.
    await advanceDays(2);
    expect(await cycleInvoices(subscription.ref)).toHaveLength(1);

    const declined = await gateway.payInvoice(open?.id ?? '', {
      idempotencyKey: `retry-${open?.id}`,
    });
    expect(declined).toMatchObject({ kind: 'declined', invoice: { attemptCount: 2 } });

    const good = await cards.add(customerRef, await tokenFor('4242424242424242'), {
      makeDefault: false,
    });
    if (good.kind !== 'added') throw new Error('4242 attaches');
    const before = clock.now().getTime();
    const paid = await gateway.payInvoice(open?.id ?? '', {
      paymentMethodRef: good.card.ref,
      idempotencyKey: `fix-${open?.id}`,
    });
    expect(paid).toMatchObject({ kind: 'paid', invoice: { status: 'paid', attemptCount: 3 } });
    const active = await gateway.fetchSubscription(subscription.ref);
    expect(active?.status).toBe('active');
    expect(active?.currentPeriodStart?.getTime()).toBeGreaterThanOrEqual(before);
    expect(active?.currentPeriodEnd?.getTime()).toBeGreaterThan(before + 27 * DAY_MS);
  });

  it('a 3-D Secure card cannot renew off-session; giving up fails it', async () => {
    const { customerRef, subscription } = await subscribed();
    await cards.add(customerRef, await tokenFor('4000002760003184'), { makeDefault: true });
    await advanceDays(31);
    const [open] = await cycleInvoices(subscription.ref);
    expect(open).toMatchObject({ status: 'open', lastFailure: 'authentication_required' });
    const given = await gateway.endForNonPayment(subscription.ref);
    expect(given).toMatchObject({ status: 'failed' });
    expect(given.endedAt).toBeInstanceOf(Date);
    expect(await gateway.fetchInvoice(open?.id ?? '')).toMatchObject({ status: 'uncollectible' });
  });

  it('canceled at period end, it expires when the period is over', async () => {
    const { subscription } = await subscribed();
    await gateway.cancel(subscription.ref, { atPeriodEnd: true });
    await advanceDays(31);
    const ended = await gateway.fetchSubscription(subscription.ref);
    expect(ended).toMatchObject({ status: 'expired', endedAt: subscription.currentPeriodEnd });
    expect(await cycleInvoices(subscription.ref)).toEqual([]);
  });

  it('paused, it is not charged and its period stays; unpaused, a fresh period is paid', async () => {
    const { subscription } = await subscribed();
    await gateway.pause(subscription.ref);
    await advanceDays(45);
    const paused = await gateway.fetchSubscription(subscription.ref);
    expect(paused).toMatchObject({ status: 'paused' });
    expect(paused?.currentPeriodEnd).toEqual(subscription.currentPeriodEnd);
    expect(await cycleInvoices(subscription.ref)).toEqual([]);
    const before = clock.now().getTime();
    const resumed = await gateway.unpause(subscription.ref);
    expect(resumed.status).toBe('active');
    expect(resumed.currentPeriodStart?.getTime()).toBeGreaterThanOrEqual(before);
    const [fresh] = await cycleInvoices(subscription.ref);
    expect(fresh).toMatchObject({
      status: 'paid',
      periodStart: resumed.currentPeriodStart?.toISOString(),
    });
  });

  it('a one-time purchase expires at the end of its period, never renewed', async () => {
    const { subscription } = await subscribed({
      items: [{ ...PLAN, productId: 32, onetime: true, intervalCount: 1 }],
    });
    await advanceDays(32);
    expect(await gateway.fetchSubscription(subscription.ref)).toMatchObject({
      status: 'expired',
      onetime: true,
    });
    expect(await cycleInvoices(subscription.ref)).toEqual([]);
  });
});
