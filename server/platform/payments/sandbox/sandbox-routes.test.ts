import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { sandboxObjects } from '../../../db/schema/sandbox.ts';
import type { App } from '../../../http/types.ts';
import { cardDetails, openSandbox, type SandboxKit } from '../../../test/sandbox-kit.ts';
import { createTestApp } from '../../../test/test-app.ts';
import { advanceTestClock, readTestClock } from '../../../test/test-clock.ts';
import { signedInUser } from '../../../test/test-sessions.ts';
import type { GatewayPrice, PaymentGateway, StartSubscriptionInput } from '../gateway.ts';
import { TEST_CLOCK_PATH } from './test-clock-routes.ts';

// The sandbox's own pages over HTTP: the tokenizer, the confirmation page, the test clock.

const PLAN: GatewayPrice = {
  productId: 21,
  ref: null,
  name: 'VPN monthly',
  amount: 999,
  currency: 'USD',
  interval: 'month',
  intervalCount: 1,
  onetime: false,
};
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let app: App;
let gateway: PaymentGateway;
let tokenize: SandboxKit['tokenize'];
let tokenFor: SandboxKit['tokenFor'];
let user = 0;

beforeAll(async () => {
  ({ app, gateway, tokenize, tokenFor } = await openSandbox());
});

async function purchase(number: string, extra: Partial<StartSubscriptionInput> = {}) {
  user += 1;
  const customerRef = await gateway.ensureCustomer({
    userId: user,
    email: `r${user}@example.com`,
    name: 'R',
  });
  const outcome = await gateway.startSubscription({
    customerRef,
    items: [PLAN],
    discount: null,
    paymentToken: await tokenFor(number),
    paymentMethodRef: null,
    returnUrl: '/en/billing/order/thanks?plan=21',
    cancelUrl: '/en/billing/order',
    idempotencyKey: `route-${user}`,
    metadata: { userId: String(user) },
    ...extra,
  });
  return { customerRef, outcome };
}

async function confirmationPath(number = '4000002760003184', extra = {}) {
  const { customerRef, outcome } = await purchase(number, extra);
  if (outcome.kind !== 'redirect') throw new Error(`expected a redirect, got ${outcome.kind}`);
  return { customerRef, path: new URL(outcome.url).pathname };
}

async function subscriptionOf(customerRef: string) {
  const [row] = await app.db
    .select({ id: sandboxObjects.id })
    .from(sandboxObjects)
    .where(
      and(eq(sandboxObjects.kind, 'subscription'), eq(sandboxObjects.customerId, customerRef)),
    );
  return gateway.fetchSubscription(row?.id ?? '');
}

describe('POST /sandbox/v1/tokens', () => {
  it('answers a single-use token and the card as the form may show it', async () => {
    const response = await tokenize({ ...cardDetails('4242 4242 4242 4242'), exp_year: 31 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: expect.stringMatching(/^tok_[0-9a-f]{24}$/),
      card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2031 },
    });
  });

  it.each([
    [{ number: '4242424242424241' }, 'card_number_invalid', 'number'],
    [{ exp_month: 0 }, 'card_expiry_invalid', 'expiry'],
    [{ exp_month: 1, exp_year: 2020 }, 'expired_card', 'expiry'],
    [{ cvc: '1' }, 'card_cvc_invalid', 'cvc'],
  ])('refuses %o with 402 %s', async (change, code, param) => {
    const response = await tokenize({ ...cardDetails('4242424242424242'), ...change });
    expect(response.statusCode).toBe(402);
    expect(response.json()).toEqual({ error: { code, message: expect.any(String), param } });
  });

  it('limits tokens per client address, against card testing', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      statuses.push((await tokenize(cardDetails('4242424242424242'), '10.3.0.1')).statusCode);
    }
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect((await tokenize(cardDetails('4242424242424242'), '10.3.0.2')).statusCode).toBe(200);
  });
});

describe('the confirmation page (3-D Secure)', () => {
  it('shows what is paid and to whom, in plain accessible HTML without script', async () => {
    const { path } = await confirmationPath();
    const page = await app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<html lang="en">');
    expect(page.body).toMatch(/<h1>Confirm your payment<\/h1>/);
    expect(page.body).toContain('$9.99');
    expect(page.body).toContain('Shieldline VPN');
    expect(page.body).toContain(`<form method="post" action="${path}">`);
    expect(page.body).toContain('>Complete authentication</button>');
    expect(page.body).toContain('>Fail authentication</button>');
    expect(page.body).not.toMatch(/<script/i);
  });

  it('completing it activates the subscription and goes back with the outcome', async () => {
    const { customerRef, path } = await confirmationPath();
    expect((await subscriptionOf(customerRef))?.status).toBe('on_hold');
    const done = await app.inject({
      method: 'POST',
      url: path,
      headers: FORM,
      payload: 'outcome=complete',
    });
    expect(done.statusCode).toBe(303);
    const paymentId = path.split('/').at(-1);
    expect(done.headers.location).toBe(
      `/en/billing/order/thanks?plan=21&sandbox_payment=${paymentId}&outcome=succeeded`,
    );
    const subscription = await subscriptionOf(customerRef);
    expect(subscription?.status).toBe('active');
    expect(await gateway.cards?.list(customerRef)).toEqual([
      expect.objectContaining({ last4: '3184', isDefault: true }),
    ]);
    // A second submit changes nothing and goes back the same way.
    const again = await app.inject({
      method: 'POST',
      url: path,
      headers: FORM,
      payload: 'outcome=fail',
    });
    expect(again.headers.location).toBe(done.headers.location);
    const settled = await app.inject({ method: 'GET', url: path });
    expect(settled.body).toContain('This payment is no longer waiting');
  });

  it('failing it ends the purchase: expired, the invoice void', async () => {
    const { customerRef, path } = await confirmationPath();
    const failed = await app.inject({
      method: 'POST',
      url: path,
      headers: FORM,
      payload: 'outcome=fail',
    });
    expect(failed.statusCode).toBe(303);
    expect(failed.headers.location).toMatch(/&outcome=failed$/);
    const subscription = await subscriptionOf(customerRef);
    expect(subscription?.status).toBe('expired');
    expect(await gateway.cards?.list(customerRef)).toEqual([]);
  });

  it('returns only to our own origin, keeping a full URL of it', async () => {
    const full = await confirmationPath('4000002760003184', {
      returnUrl: 'http://localhost:3000/en/billing?from=sandbox#top',
    });
    const back = await app.inject({
      method: 'POST',
      url: full.path,
      headers: FORM,
      payload: 'outcome=complete',
    });
    expect(back.headers.location).toMatch(
      /^http:\/\/localhost:3000\/en\/billing\?from=sandbox&sandbox_payment=pay_\w+&outcome=succeeded#top$/,
    );
    for (const returnUrl of ['https://evil.example/x', '//evil.example/x', '/\\evil.example']) {
      const { customerRef, path } = await confirmationPath('4000002760003184', { returnUrl });
      const refused = await app.inject({
        method: 'POST',
        url: path,
        headers: FORM,
        payload: 'outcome=complete',
      });
      expect(refused.statusCode).toBe(400);
      expect((await subscriptionOf(customerRef))?.status).toBe('on_hold');
    }
  });

  it('refuses a form posted from another site, a bad outcome and an unknown payment', async () => {
    const { path } = await confirmationPath();
    const foreign = await app.inject({
      method: 'POST',
      url: path,
      headers: { ...FORM, origin: 'https://evil.example' },
      payload: 'outcome=complete',
    });
    expect(foreign.statusCode).toBe(403);
    const odd = await app.inject({
      method: 'POST',
      url: path,
      headers: FORM,
      payload: 'outcome=maybe',
    });
    expect(odd.statusCode).toBe(400);
    const unknown = await app.inject({
      method: 'GET',
      url: '/sandbox/v1/authenticate/pay_nothing',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('confirms a plan change paid with a 3-D Secure card', async () => {
    const { customerRef, outcome } = await purchase('4242424242424242');
    if (outcome.kind !== 'completed') throw new Error('expected a paid start');
    const added = await gateway.cards?.add(customerRef, await tokenFor('4000002760003184'), {
      makeDefault: true,
    });
    expect(added?.kind).toBe('added');
    const change = await gateway.changePlan({
      subscriptionRef: outcome.subscription.ref,
      items: [{ ...PLAN, productId: 22, amount: 2999 }],
      idempotencyKey: `change-${customerRef}`,
    });
    if (change.kind !== 'redirect') throw new Error(`expected a redirect, got ${change.kind}`);
    expect(change.subscription.items[0]?.productId).toBe(21);
    const path = new URL(change.url).pathname;
    await app.inject({ method: 'POST', url: path, headers: FORM, payload: 'outcome=complete' });
    const changed = await gateway.fetchSubscription(outcome.subscription.ref);
    expect(changed?.items[0]?.productId).toBe(22);
  });

  it('confirms a change to a yearly plan, which restarts the period then', async () => {
    const { customerRef, outcome } = await purchase('4242424242424242');
    if (outcome.kind !== 'completed') throw new Error('expected a paid start');
    await gateway.cards?.add(customerRef, await tokenFor('4000002760003184'), {
      makeDefault: true,
    });
    const change = await gateway.changePlan({
      subscriptionRef: outcome.subscription.ref,
      items: [{ ...PLAN, productId: 23, amount: 9999, interval: 'year' }],
      idempotencyKey: `yearly-${customerRef}`,
    });
    if (change.kind !== 'redirect') throw new Error(`expected a redirect, got ${change.kind}`);
    expect(change.subscription.currentPeriodEnd).toEqual(outcome.subscription.currentPeriodEnd);
    const path = new URL(change.url).pathname;
    await app.inject({ method: 'POST', url: path, headers: FORM, payload: 'outcome=complete' });
    const changed = await gateway.fetchSubscription(outcome.subscription.ref);
    expect(changed?.items[0]?.productId).toBe(23);
    const days =
      ((changed?.currentPeriodEnd?.getTime() ?? 0) -
        (changed?.currentPeriodStart?.getTime() ?? 0)) /
      86_400_000;
    expect(days).toBeGreaterThanOrEqual(365);
    expect(days).toBeLessThanOrEqual(366);
  });
});

describe('the test clock', () => {
  it('tells the time and moves it forward within bounds', async () => {
    const before = (await readTestClock(app)).json<{ now: string }>();
    const moved = await advanceTestClock(app, { days: 2, seconds: 30 });
    expect(moved.statusCode).toBe(200);
    const gap = Date.parse(moved.json<{ now: string }>().now) - Date.parse(before.now);
    expect(gap).toBeGreaterThanOrEqual((2 * 86_400 + 30) * 1000);
    expect(gap).toBeLessThan((2 * 86_400 + 90) * 1000);
    for (const by of [{ days: 401 }, { days: -1 }, { days: 300, seconds: 300 * 86_400 }]) {
      expect((await advanceTestClock(app, by)).statusCode).toBe(422);
    }
  });

  it("is an admin's alone, and a move needs the CSRF header", async () => {
    const before = (await readTestClock(app)).json<{ now: string }>().now;
    const move = (headers: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: `${TEST_CLOCK_PATH}/advance`,
        headers: { 'x-requested-with': 'fetch', ...headers },
        payload: { days: 30 },
      });
    // A visitor, whatever the site that sends it: what a cross-site form used to do.
    expect((await move({})).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: TEST_CLOCK_PATH })).statusCode).toBe(401);
    for (const role of ['USER', 'AUTHOR'] as const) {
      const { cookie } = await signedInUser(app, { role });
      expect((await move({ cookie })).statusCode, role).toBe(403);
      const read = await app.inject({ method: 'GET', url: TEST_CLOCK_PATH, headers: { cookie } });
      expect(read.statusCode, role).toBe(403);
    }
    const admin = await signedInUser(app, { role: 'ADMIN' });
    const forged = await app.inject({
      method: 'POST',
      url: `${TEST_CLOCK_PATH}/advance`,
      headers: { cookie: admin.cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ days: 30 }),
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toEqual({ code: 'forbidden', errors_info: ['errors.csrf'] });
    const elsewhere = await move({ cookie: admin.cookie, origin: 'https://evil.example' });
    expect(elsewhere.statusCode).toBe(403);
    // None of them moved it (30 days each).
    const after = (await readTestClock(app)).json<{ now: string }>().now;
    expect(Date.parse(after) - Date.parse(before)).toBeLessThan(60_000);
  });
});

describe('the test clock in production', () => {
  it('does not exist, even with the sandbox on', async () => {
    const { app: production } = await createTestApp({
      NODE_ENV: 'production',
      BILLING_SANDBOX: 'true',
      SANDBOX_WEBHOOK_SECRET: 'whsec_production_test_0123456789abcdef',
    });
    expect((await advanceTestClock(production, { days: 1 })).statusCode).toBe(404);
    // A GET of a path nobody serves is the web app's (history fallback), not the clock.
    expect((await readTestClock(production)).body).not.toContain('"now"');
  });
});
