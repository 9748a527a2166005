import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { invoiceEndpoints as inv } from '#shared/contracts/admin/invoices.ts';
import {
  SALES_MESSAGES as M,
  subscriptionEndpoints as subs,
} from '#shared/contracts/admin/subscriptions.ts';
import { currentSubscriptionEndpoint } from '#shared/contracts/current-subscription.ts';
import { REALTIME_EVENTS, systemEventsChannel } from '#shared/contracts/realtime.ts';
import { auditLog, invoices, refunds, subscriptions } from '../../db/schema/index.ts';
import { GatewayRequestError, type PaymentGateway } from '../../platform/payments/gateway.ts';
import { openShop, paymentArrived } from '../../test/billing-kit.ts';
import { TEST_QUEUE_TIMINGS } from '../../test/test-app.ts';
import { connectClient, connected, nextEvent, startApp } from '../../test/test-realtime.ts';
import { signedInUser, type TestSession } from '../../test/test-sessions.ts';

// §7 dashboard /subscriptions and /invoices through the real routes, database, sandbox
// gateway and realtime server. Who may call them at all is the authorization matrix's.
const { app, port } = await startApp({}, { queue: TEST_QUEUE_TIMINGS });
afterAll(() => app.close());
const shop = await openShop(app);
const api = shop.call;
const admin = await signedInUser(app, { role: 'ADMIN', name: 'Sales Admin' });
const as = { cookie: admin.cookie };

/** A new customer with a paid monthly plan: their subscription and its invoice. */
async function customerWithPlan(plan = '1 month') {
  const customer = await signedInUser(app);
  const bought = await shop.buy(customer, { plan });
  expect(bought.status).toBe(200);
  const subscriptionId = bought.data.subscription_id as number;
  const invoiceId = bought.data.invoice_id as number;
  await paymentArrived(app, invoiceId);
  const [invoice] = await app.db.select().from(invoices).where(eq(invoices.id, invoiceId));
  return { customer, subscriptionId, invoiceId, invoice: invoice as typeof invoices.$inferSelect };
}

async function statusOf(session: TestSession) {
  const current = await api(currentSubscriptionEndpoint, { cookie: session.cookie });
  return current.data.subscription?.status;
}

async function audits(action: string, subjectId: number) {
  return app.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.subjectId, String(subjectId))));
}

async function refundedOf(invoiceId: number) {
  const rows = await app.db.select().from(refunds).where(eq(refunds.invoiceId, invoiceId));
  return rows.reduce((sum, row) => sum + row.amount, 0);
}

async function liveChannel(userId: number) {
  const client = connectClient(port, { presence: { user_id: String(userId) } });
  await connected(client);
  const channel = client.subscribe(systemEventsChannel(userId));
  await nextEvent(channel, 'pusher:subscription_succeeded');
  return { channel, close: () => client.disconnect() };
}

describe('the subscriptions list', () => {
  it('lists with the customer, plan, actions and what a refund would give back', async () => {
    const { customer, subscriptionId, invoice } = await customerWithPlan();
    const list = await api(subs.list, { ...as, query: { user_id: customer.user.id } });
    expect(list.status).toBe(200);
    expect(list.data.items).toHaveLength(1);
    expect(list.data.items[0]).toMatchObject({
      subscription_id: subscriptionId,
      status: 'active',
      service_id: 1,
      gateway: 'sandbox',
      customer: { id: customer.user.id, email: customer.user.email },
      latest_paid_invoice_id: invoice.id,
      refundable: invoice.amountPaid,
      actions: { cancel_now: true, cancel_at_period_end: true, resume: false, refund: true },
    });
  });

  it('filters by status, service, plan, customer search and days; refuses bad filters', async () => {
    const { customer, subscriptionId } = await customerWithPlan('1 year');
    const ids = async (query: Record<string, string | number>) =>
      (await api(subs.list, { ...as, query })).data.items.map((row) => row.subscription_id);
    expect(await ids({ search: customer.user.email })).toEqual([subscriptionId]);
    expect(await ids({ search: customer.user.email, status: 'expired' })).toEqual([]);
    const plan = (await api(subs.list, { ...as, query: { search: customer.user.email } })).data
      .items[0]?.plan;
    expect(
      await ids({
        search: customer.user.email,
        service_id: 1,
        plan: plan?.family as string,
        product_id: plan?.product_id as number,
      }),
    ).toEqual([subscriptionId]);
    expect(await ids({ search: customer.user.email, plan: 'no-such-family' })).toEqual([]);
    expect(await ids({ search: customer.user.email, service_id: 6 })).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await ids({ search: customer.user.email, from: today, to: today })).toEqual([
      subscriptionId,
    ]);
    expect(await ids({ search: customer.user.email, to: '2001-01-01' })).toEqual([]);
    const bad = await api(subs.list, {
      ...as,
      query: { status: 'nope', service_id: 3 } as never,
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors_validation as object).sort()).toEqual([
      'service_id',
      'status',
    ]);
    const backwards = await api(subs.list, {
      ...as,
      query: { from: '2026-02-01', to: '2026-01-01' },
    });
    expect(backwards.body.errors_validation).toEqual({ to: [M.rangeInvalid] });
  });
});

describe('staff cancel and resume through the gateway', () => {
  it('cancels at period end, resumes, and the customer hears of each live', async () => {
    const { customer, subscriptionId, invoice } = await customerWithPlan();
    const [row] = await app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, subscriptionId));
    const live = await liveChannel(customer.user.id);
    try {
      const heard = nextEvent(live.channel, REALTIME_EVENTS.subscriptionUpdated);
      const canceled = await api(subs.cancel, {
        ...as,
        body: {
          plan_id: row?.productId as number,
          subscription_id: subscriptionId,
          atThePeriodEnd: true,
        },
      });
      expect(canceled.status).toBe(200);
      expect(canceled.data.subscription).toMatchObject({
        status: 'canceled',
        cancel_at_period_end: true,
        actions: { resume: true, cancel_at_period_end: false },
      });
      await heard;
      expect(await statusOf(customer)).toBe('canceled');
      expect(await audits('subscriptions.canceled', subscriptionId)).toHaveLength(1);

      const resumed = await api(subs.resume, { ...as, body: { subscription_id: subscriptionId } });
      expect(resumed.status).toBe(200);
      expect(resumed.data.subscription.status).toBe('active');
      expect(await statusOf(customer)).toBe('active');
      expect(await audits('subscriptions.resumed', subscriptionId)).toHaveLength(1);
      // Nothing to resume now: refused, not sent to the gateway.
      const again = await api(subs.resume, { ...as, body: { subscription_id: subscriptionId } });
      expect(again.status).toBe(409);
      expect(again.body.errors_info).toEqual([M.notAllowed]);
    } finally {
      live.close();
    }
    expect(invoice.amountPaid).toBeGreaterThan(0);
  });

  it('cancels now: the plan ends (§4 expired) and nothing is given back', async () => {
    const { customer, subscriptionId } = await customerWithPlan();
    const [row] = await app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, subscriptionId));
    const wrongPlan = await api(subs.cancel, {
      ...as,
      body: {
        plan_id: (row?.productId as number) + 999,
        subscription_id: subscriptionId,
        atThePeriodEnd: false,
      },
    });
    expect(wrongPlan.status).toBe(422);
    expect(wrongPlan.body.errors_validation).toEqual({ plan_id: [M.notThisPlan] });
    const ended = await api(subs.cancel, {
      ...as,
      body: {
        plan_id: row?.productId as number,
        subscription_id: subscriptionId,
        atThePeriodEnd: false,
      },
    });
    expect(ended.status).toBe(200);
    expect(ended.data.subscription.status).toBe('expired');
    expect(await statusOf(customer)).toBe('expired');
  });

  it('refuses what §4 refuses: resuming a canceled PayPal plan, an unknown subscription', async () => {
    const { customer, subscriptionId } = await customerWithPlan();
    const [row] = await app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, subscriptionId));
    const [paypal] = await app.db
      .insert(subscriptions)
      .values({
        userId: customer.user.id,
        gateway: 'paypal',
        gatewayRef: `I-STAFF${subscriptionId}`,
        serviceId: 2,
        productId: row?.productId as number,
        status: 'canceled',
        paymentMethodType: 'paypal',
        currency: 'USD',
        amount: 999,
        cancelAtPeriodEnd: true,
        gatewayUpdatedAt: new Date(),
      })
      .returning();
    const resumed = await api(subs.resume, {
      ...as,
      body: { subscription_id: paypal?.id as number },
    });
    expect(resumed.status).toBe(409);
    expect(resumed.body.errors_info).toEqual([M.notAllowed]);
    const missing = await api(subs.resume, { ...as, body: { subscription_id: 2_000_000_000 } });
    expect(missing.status).toBe(404);
    const invalid = await api(subs.cancel, { ...as, body: { subscription_id: 'x' } as never });
    expect(invalid.status).toBe(422);
  });
});

describe('refunds', () => {
  it('refunds a subscription: ended now and given back in full, §4 refunded, once', async () => {
    const { customer, subscriptionId, invoice } = await customerWithPlan();
    const wrongService = await api(subs.refund, {
      ...as,
      body: { service_id: 2, subscription_id: subscriptionId },
    });
    expect(wrongService.status).toBe(422);
    expect(wrongService.body.errors_validation).toEqual({ service_id: [M.notThisService] });
    const live = await liveChannel(customer.user.id);
    try {
      const heard = nextEvent(live.channel, REALTIME_EVENTS.subscriptionUpdated);
      const refunded = await api(subs.refund, {
        ...as,
        body: { service_id: 1, subscription_id: subscriptionId },
      });
      expect(refunded.status).toBe(200);
      expect(refunded.data.refunded).toBe(invoice.amountPaid);
      expect(refunded.data.subscription).toMatchObject({ status: 'refunded', refundable: 0 });
      await heard;
    } finally {
      live.close();
    }
    expect(await statusOf(customer)).toBe('refunded');
    expect(await refundedOf(invoice.id)).toBe(invoice.amountPaid);
    const [given] = await app.db.select().from(refunds).where(eq(refunds.invoiceId, invoice.id));
    expect(given?.createdBy).toBe(admin.user.id);
    expect(await audits('subscriptions.refunded', subscriptionId)).toHaveLength(1);
    const again = await api(subs.refund, {
      ...as,
      body: { service_id: 1, subscription_id: subscriptionId },
    });
    expect(again.status).toBe(409);
    expect(again.body.errors_info).toEqual([M.nothingToRefund]);
  });

  it('refunds an invoice in part, then the rest; never beyond what is left', async () => {
    const { customer, invoice } = await customerWithPlan();
    const part = await api(inv.refund, {
      ...as,
      body: { invoice_id: invoice.id, amount: 100, reason: 'goodwill' },
    });
    expect(part.status, part.text).toBe(200);
    expect(part.data.refunded).toBe(100);
    expect(part.data.invoice.amount_refunded).toBe(100);
    // A part given back leaves the plan running.
    expect(await statusOf(customer)).toBe('active');
    const tooMuch = await api(inv.refund, {
      ...as,
      body: { invoice_id: invoice.id, amount: invoice.amountPaid },
    });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors_validation).toEqual({ amount: [M.refundTooLarge] });
    const rest = await api(inv.refund, { ...as, body: { invoice_id: invoice.id } });
    expect(rest.status).toBe(200);
    expect(rest.data.refunded).toBe(invoice.amountPaid - 100);
    expect(rest.data.invoice.amount_refunded).toBe(invoice.amountPaid);
    const nothing = await api(inv.refund, { ...as, body: { invoice_id: invoice.id, amount: 1 } });
    expect(nothing.status).toBe(422);
    expect(nothing.body.errors_validation).toEqual({ amount: [M.nothingToRefund] });
    expect(await refundedOf(invoice.id)).toBe(invoice.amountPaid);
    expect(await audits('invoices.refunded', invoice.id)).toHaveLength(2);
  });

  it('two refunds of one invoice at once give it back once', async () => {
    const { invoice } = await customerWithPlan();
    const both = await Promise.all([
      api(inv.refund, { ...as, body: { invoice_id: invoice.id } }),
      api(inv.refund, { ...as, body: { invoice_id: invoice.id } }),
    ]);
    const statuses = both.map((answer) => answer.status).sort();
    expect(statuses[0]).toBe(200);
    expect([409, 422]).toContain(statuses[1]);
    expect(await refundedOf(invoice.id)).toBe(invoice.amountPaid);
  });

  it('refunds in full and ends the plan: the customer sees §4 refunded', async () => {
    const { customer, invoice, subscriptionId } = await customerWithPlan();
    const answer = await api(inv.refund, {
      ...as,
      body: { invoice_id: invoice.id, end_subscription: true },
    });
    expect(answer.status).toBe(200);
    expect(answer.data.subscription).toMatchObject({
      subscription_id: subscriptionId,
      status: 'refunded',
    });
    expect(await statusOf(customer)).toBe('refunded');
  });

  it('answers 409 when the gateway refuses, and moves no money', async () => {
    const { invoice } = await customerWithPlan();
    const sandbox = app.payments.get('sandbox') as PaymentGateway;
    app.payments.add({
      ...sandbox,
      refund: async () => {
        throw new GatewayRequestError('invalid_state', 'refunds are off today');
      },
    });
    try {
      const refused = await api(inv.refund, { ...as, body: { invoice_id: invoice.id } });
      expect(refused.status).toBe(409);
      expect(refused.body.errors_info).toEqual([M.gatewayRefused]);
    } finally {
      app.payments.add(sandbox);
    }
    expect(await refundedOf(invoice.id)).toBe(0);
    // The slot is free again: the next try goes through.
    const retried = await api(inv.refund, { ...as, body: { invoice_id: invoice.id } });
    expect(retried.status).toBe(200);
  });

  it('validates the refund body', async () => {
    const bad = await api(inv.refund, {
      ...as,
      body: { invoice_id: 0, amount: -5, reason: 'x'.repeat(501), address: '!' } as never,
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors_validation as object).sort()).toEqual([
      'address',
      'amount',
      'invoice_id',
      'reason',
    ]);
    const missing = await api(inv.refund, { ...as, body: { invoice_id: 2_000_000_000 } });
    expect(missing.status).toBe(404);
  });
});

describe('the invoices list, latest, PDF and exports', () => {
  it('lists and filters invoices', async () => {
    const { customer, invoice } = await customerWithPlan();
    const list = await api(inv.list, { ...as, query: { user_id: customer.user.id } });
    expect(list.status).toBe(200);
    expect(list.data.items).toEqual([
      expect.objectContaining({
        invoice_id: invoice.id,
        number: invoice.number,
        status: 'paid',
        gateway: 'sandbox',
        service_id: 1,
        customer: expect.objectContaining({ id: customer.user.id }),
      }),
    ]);
    const ids = async (query: Record<string, string | number>) =>
      (await api(inv.list, { ...as, query })).data.items.map((row) => row.invoice_id);
    expect(await ids({ search: invoice.number as string })).toEqual([invoice.id]);
    expect(await ids({ search: customer.user.email, status: 'paid', service_id: 1 })).toEqual([
      invoice.id,
    ]);
    expect(await ids({ search: customer.user.email, currency: 'eur' })).toEqual([]);
    expect(await ids({ search: customer.user.email, refunded: 'true' })).toEqual([]);
    expect(await ids({ search: customer.user.email, gateway: 'paypal' })).toEqual([]);
    const bad = await api(inv.list, {
      ...as,
      query: { currency: 'dollars', sort: 'nope' } as never,
    });
    expect(bad.status).toBe(422);
    const latest = await api(inv.latest, { ...as, query: { limit: 1 } });
    expect(latest.status).toBe(200);
    expect(latest.data.items).toHaveLength(1);
  });

  it("downloads one invoice's PDF", async () => {
    const { invoice } = await customerWithPlan();
    const pdf = await app.inject({
      method: 'GET',
      url: inv.pdf.url.replace(':invoice_id', String(invoice.id)),
      headers: { cookie: admin.cookie, 'x-requested-with': 'fetch' },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('exports a range as CSV (every invoice) and as a PDF report', async () => {
    const { customer, invoice } = await customerWithPlan();
    const today = new Date().toISOString().slice(0, 10);
    const query = `from=${today}&to=${today}&search=${encodeURIComponent(customer.user.email)}`;
    const csv = await app.inject({
      method: 'GET',
      url: `${inv.exportCsv.url}?${query}`,
      headers: { cookie: admin.cookie, 'x-requested-with': 'fetch' },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toMatch(/^invoice_id,number,status,/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(invoice.number as string);
    expect(lines[1]).toContain(customer.user.email);
    const pdf = await app.inject({
      method: 'GET',
      url: `${inv.exportPdf.url}?${query}&lang=ru`,
      headers: { cookie: admin.cookie, 'x-requested-with': 'fetch' },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const tooLong = await api(inv.exportCsv, {
      ...as,
      query: { from: '2020-01-01', to: '2026-01-01' },
    });
    expect(tooLong.status).toBe(422);
    const noRange = await api(inv.exportPdf, { ...as, query: {} as never });
    expect(noRange.status).toBe(422);
  });
});
