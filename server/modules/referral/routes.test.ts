import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { currentSubscriptionEndpoint } from '#shared/contracts/current-subscription.ts';
import { REALTIME_EVENTS, systemEventsChannel } from '#shared/contracts/realtime.ts';
import { REFERRAL_MESSAGES, referralEndpoints } from '#shared/contracts/referral.ts';
import { invoices, referrals, subscriptions } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { CARDS, openShop } from '../../test/billing-kit.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser, type TestSession } from '../../test/test-sessions.ts';
import { until } from '../../test/wait-until.ts';
import type { Applied } from '../billing/apply-snapshots.ts';
import { notifyBillingListeners } from '../billing/billing-listeners.ts';
import { grantBonusDays } from '../billing/bonus-days.ts';
import { seedDemoReferrals } from './demo-referrals.ts';
import { claimReward, grantSide, referralSweep, rewardLine } from './referral-rewards.ts';

const e = referralEndpoints;
const BONUS_DAYS = 12;

const { app } = await createTestApp({ REFERRAL_BONUS_DAYS: String(BONUS_DAYS) });
const shop = await openShop(app);
const { call } = shop;

async function viewOf(session: TestSession) {
  const answer = await call(e.view, { cookie: session.cookie });
  expect(answer.status).toBe(200);
  return answer.data;
}

/** A referrer with a code, and a friend who joined through it. */
async function referredPair() {
  const referrer = await signedInUser(app);
  const friend = await signedInUser(app);
  const { code } = await viewOf(referrer);
  const joined = await call(e.join, { cookie: friend.cookie, body: { token: code } });
  expect(joined.status).toBe(200);
  expect(joined.data).toEqual({ joined: true });
  return { referrer, friend, code };
}

async function referralOf(referredId: number) {
  const [row] = await app.db.select().from(referrals).where(eq(referrals.referredId, referredId));
  return row;
}

/** The grant jobs run on the queue: wait until both sides' days are on the books. */
async function bonusRuns(target: App, userId: number) {
  return target.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
}

async function waitForDays(session: TestSession, days: number) {
  await until(
    async () => {
      await app.queue.drain();
      return (await viewOf(session)).bonus_days_left === days;
    },
    `${days} bonus days`,
    20_000,
  );
}

describe('referral program: view', () => {
  it('makes a random code on first view and keeps it; figures start at zero', async () => {
    const me = await signedInUser(app);
    const first = await viewOf(me);
    expect(first).toEqual({
      code: expect.any(String),
      referrals_count: 0,
      bonus_days_left: 0,
      bonus_days_per_friend: BONUS_DAYS,
    });
    expect(first.code).toMatch(/^[A-Za-z0-9]{16}$/);
    expect((await viewOf(me)).code).toBe(first.code);
    const other = await viewOf(await signedInUser(app));
    expect(other.code).not.toBe(first.code);
  });

  it('counts bonus days left from the ledger, whatever granted them (ceil)', async () => {
    const me = await signedInUser(app);
    await grantBonusDays(app, me.user, { days: 3, description: '3 bonus days', actorId: null });
    expect((await viewOf(me)).bonus_days_left).toBe(3);
  });

  it('answers visitors 401, and staff their own figures', async () => {
    expect((await call(e.view, {})).status).toBe(401);
    expect((await call(e.join, { body: { token: 'abc' } })).status).toBe(401);
    const admin = await signedInUser(app, { role: 'ADMIN' });
    expect((await call(e.view, { cookie: admin.cookie })).status).toBe(200);
  });
});

describe('referral program: join', () => {
  it('records the referral and tells the referrer live', async () => {
    const publish = vi.spyOn(app.realtime, 'publish');
    const { referrer, friend } = await referredPair();
    expect((await viewOf(referrer)).referrals_count).toBe(1);
    expect(await referralOf(friend.user.id)).toMatchObject({
      referrerId: referrer.user.id,
      rewardedAt: null,
    });
    expect(publish).toHaveBeenCalledWith(
      systemEventsChannel(referrer.user.id),
      REALTIME_EVENTS.referralUpdated,
      { referrals_count: 1 },
    );
    publish.mockRestore();
    // Nothing at sign-up: the days come with the first payment.
    expect((await viewOf(referrer)).bonus_days_left).toBe(0);
    expect((await viewOf(friend)).bonus_days_left).toBe(0);
  });

  it('refuses an unknown code under the token field, and a blank one', async () => {
    const me = await signedInUser(app);
    const unknown = await call(e.join, { cookie: me.cookie, body: { token: 'no-such-code' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors_validation).toEqual({ token: [REFERRAL_MESSAGES.codeUnknown] });
    const blank = await call(e.join, { cookie: me.cookie, body: { token: '   ' } });
    expect(blank.status).toBe(422);
    expect(blank.body.errors_validation).toEqual({ token: ['input_errors.field_is_required'] });
  });

  it('limits guessing codes per account', async () => {
    const me = await signedInUser(app);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      statuses.push(
        (await call(e.join, { cookie: me.cookie, body: { token: `guess${i}` } })).status,
      );
    }
    expect(statuses.slice(0, 10).every((status) => status === 422)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('refuses self-referral, a second join and an account that has paid', async () => {
    const me = await signedInUser(app);
    const own = await call(e.join, { cookie: me.cookie, body: { token: (await viewOf(me)).code } });
    expect(own.status).toBe(409);
    expect(own.body.errors_info).toEqual([REFERRAL_MESSAGES.ownCode]);

    const { friend } = await referredPair();
    const otherCode = (await viewOf(await signedInUser(app))).code;
    const second = await call(e.join, { cookie: friend.cookie, body: { token: otherCode } });
    expect(second.status).toBe(409);
    expect(second.body.errors_info).toEqual([REFERRAL_MESSAGES.alreadyReferred]);

    const customer = await signedInUser(app);
    expect((await shop.buy(customer)).status).toBe(200);
    const paid = await call(e.join, { cookie: customer.cookie, body: { token: otherCode } });
    expect(paid.status).toBe(409);
    expect(paid.body.errors_info).toEqual([REFERRAL_MESSAGES.alreadyPaid]);
    expect(await referralOf(customer.user.id)).toBeUndefined();
  });

  it('lets one of two joins at once in', async () => {
    const friend = await signedInUser(app);
    const codes = [
      (await viewOf(await signedInUser(app))).code,
      (await viewOf(await signedInUser(app))).code,
    ];
    const answers = await Promise.all(
      codes.map((token) => call(e.join, { cookie: friend.cookie, body: { token } })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
  });
});

describe('referral program: reward on the first payment', () => {
  it('grants both sides bonus days through service 5 when the friend first pays', async () => {
    const { referrer, friend } = await referredPair();
    // A payment that fails earns nothing.
    expect((await shop.buy(friend, { card: CARDS.declined })).status).not.toBe(200);
    expect((await referralOf(friend.user.id))?.rewardedAt).toBeNull();

    expect((await shop.buy(friend)).status).toBe(200);
    await waitForDays(referrer, BONUS_DAYS);
    await waitForDays(friend, BONUS_DAYS);
    const referral = await referralOf(friend.user.id);
    expect(referral).toMatchObject({ rewardDays: BONUS_DAYS, rewardedAt: expect.any(Date) });
    const [paidInvoice] = await app.db
      .select()
      .from(invoices)
      .where(eq(invoices.userId, friend.user.id));
    expect(referral?.rewardInvoiceId).toBeTypeOf('number');
    expect(paidInvoice).toBeDefined();
    const runs = await bonusRuns(app, referrer.user.id);
    expect(runs.map((run) => run.serviceId)).toEqual([5]);
    // The friend keeps their paid plan as the current one; the days run beside it.
    const friendRuns = await bonusRuns(app, friend.user.id);
    expect(friendRuns.map((run) => run.serviceId).sort()).toEqual([1, 5]);
  });

  it('grants once for a replayed paid event, a duplicate job and the sweep', async () => {
    const { referrer, friend } = await referredPair();
    expect((await shop.buy(friend)).status).toBe(200);
    await waitForDays(referrer, BONUS_DAYS);
    const referral = await referralOf(friend.user.id);
    if (!referral) throw new Error('no referral');
    const [invoice] = await app.db
      .select()
      .from(invoices)
      .where(eq(invoices.id, referral.rewardInvoiceId ?? 0));
    if (!invoice) throw new Error('no reward invoice');
    // The same paid event delivered again, a claim racing it, the jobs run twice, a sweep.
    const replay: Applied = {
      userId: friend.user.id,
      subscription: null,
      invoice: { row: invoice, before: 'open' },
      refundCreated: null,
      cardsChanged: false,
      ignored: [],
    };
    await Promise.all([
      notifyBillingListeners(app, replay),
      claimReward(app, friend.user.id, invoice.id),
    ]);
    await grantSide(app, { referralId: referral.id, side: 'referrer' });
    await grantSide(app, { referralId: referral.id, side: 'referred' });
    await referralSweep(app);
    await app.queue.drain();
    expect((await viewOf(referrer)).bonus_days_left).toBe(BONUS_DAYS);
    expect((await viewOf(friend)).bonus_days_left).toBe(BONUS_DAYS);
    const lines = await app.db.select().from(invoices).where(eq(invoices.userId, referrer.user.id));
    expect(lines.filter((row) => row.gateway === 'bonus')).toHaveLength(1);
  });

  it('the sweep claims a paid referral whose payment event was lost, and grants a lost side', async () => {
    const { referrer, friend } = await referredPair();
    // The payment's listener never ran (a crash after the commit): only the sweep is left.
    const referral = await referralOf(friend.user.id);
    if (!referral) throw new Error('no referral');
    await app.db.delete(referrals).where(eq(referrals.id, referral.id));
    expect((await shop.buy(friend)).status).toBe(200);
    await app.db
      .insert(referrals)
      .values({ referrerId: referrer.user.id, referredId: friend.user.id });
    await referralSweep(app);
    await waitForDays(referrer, BONUS_DAYS);
    await waitForDays(friend, BONUS_DAYS);

    // A claim whose referrer side never got its days (jobs out of retries) is granted later.
    const other = await referredPair();
    const [row] = await app.db
      .insert(referrals)
      .values({
        referrerId: other.referrer.user.id,
        referredId: (await signedInUser(app)).user.id,
        rewardedAt: new Date(app.payments.clock.now().getTime() - 3_600_000),
        rewardDays: 5,
      })
      .returning();
    if (!row) throw new Error('no row');
    await referralSweep(app);
    await waitForDays(other.referrer, 5);
    expect(rewardLine(row, 'referrer')).toContain(`referral ${row.id}`);
  });
});

describe('referral program: flag off', () => {
  it('answers as a switched-off feature and grants nothing', async () => {
    const { app: off } = await createTestApp({ FEATURES: 'billing,users,auth,logging' });
    const shopOff = await openShop(off);
    const offCall = shopOff.call;
    const session = await signedInUser(off);
    expect((await offCall(e.view, { cookie: session.cookie })).status).toBe(404);
    expect((await offCall(e.join, { cookie: session.cookie, body: { token: 'x' } })).status).toBe(
      404,
    );
    // A referral on the books (from before the flag went off) earns nothing on payment.
    const referrer = await signedInUser(off);
    const friend = await signedInUser(off);
    await off.db
      .insert(referrals)
      .values({ referrerId: referrer.user.id, referredId: friend.user.id });
    expect((await shopOff.buy(friend)).status).toBe(200);
    await off.queue.drain();
    const [row] = await off.db
      .select()
      .from(referrals)
      .where(eq(referrals.referredId, friend.user.id));
    expect(row?.rewardedAt).toBeNull();
    expect(await bonusRuns(off, referrer.user.id)).toEqual([]);
  });
});

describe('referral program: demo data', () => {
  it("gives the demo customer a link, three referrals and two rewards' days beside the paid plan", async () => {
    const customer = await signedInUser(app, { email: 'customer@example.com' });
    expect((await shop.buy(customer)).status).toBe(200);
    await seedDemoReferrals(app);
    await seedDemoReferrals(app);
    await waitForDays(customer, 2 * BONUS_DAYS);
    expect((await viewOf(customer)).referrals_count).toBe(3);
    const current = await call(currentSubscriptionEndpoint, { cookie: customer.cookie });
    expect(current.data.subscription).toMatchObject({ status: 'active', service_id: 1 });
  });
});
