import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dashboardEndpoints as e } from '#shared/contracts/admin/dashboard.ts';
import type { SubscriptionStatus } from '#shared/subscription/actions.ts';
import { invoices, subscriptions, type UserRow } from '../../db/schema/index.ts';
import { endpointClient } from '../../test/api-client.ts';
import { openShop } from '../../test/billing-kit.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser } from '../../test/test-sessions.ts';
import { createUser } from '../../test/test-users.ts';
import { dashboardSummary } from './dashboard-summary.ts';

// §2 /admin/dashboard's counts through the real route and database. The rows are written
// straight in the tables: what is counted is the subject here, not how billing makes them.
const { app } = await createTestApp();
const api = endpointClient(app);
const shop = await openShop(app);
const plan = await shop.plan();
const admin = await signedInUser(app, { role: 'ADMIN' });

async function subscription(user: UserRow, status: SubscriptionStatus) {
  const [row] = await app.db
    .insert(subscriptions)
    .values({
      userId: user.id,
      gateway: 'sandbox',
      gatewayRef: `sub_${randomUUID()}`,
      serviceId: 1,
      productId: plan.id,
      status,
      paymentMethodType: 'card',
      currency: 'USD',
      amount: 999,
      gatewayUpdatedAt: new Date(),
    })
    .returning();
  if (!row) throw new Error('no subscription');
  return row;
}

async function invoice(
  user: UserRow | null,
  fields: Partial<typeof invoices.$inferInsert> & { status: 'open' | 'paid' },
) {
  await app.db.insert(invoices).values({
    userId: user?.id ?? null,
    gateway: 'sandbox',
    gatewayRef: `in_${randomUUID()}`,
    currency: 'EUR',
    subtotal: 1200,
    total: 1200,
    lang: 'en',
    buyer: { name: 'Buyer', email: user?.email ?? 'gone@example.com', lines: [] },
    gatewayUpdatedAt: new Date(),
    ...fields,
  });
}

describe('the admin dashboard summary', () => {
  it('counts running subscriptions per status and those needing attention', async () => {
    const before = await api(e.summary, { cookie: admin.cookie });
    expect(before.status).toBe(200);
    const customer = await createUser(app.db);
    for (const status of ['active', 'active', 'on_hold', 'failed', 'expired'] as const) {
      await subscription(customer, status);
    }
    const after = await api(e.summary, { cookie: admin.cookie });
    const count = (answer: typeof after, status: string) =>
      answer.data.subscriptions.find((row) => row.status === status)?.count;
    expect(count(after, 'active')).toBe((count(before, 'active') ?? 0) + 2);
    expect(count(after, 'on_hold')).toBe((count(before, 'on_hold') ?? 0) + 1);
    // Ended subscriptions are history, not something running.
    expect(after.data.subscriptions.map((row) => row.status)).not.toContain('expired');
    expect(after.data.attention.subscriptions).toBe(before.data.attention.subscriptions + 2);
  });

  it('lists the newest open invoices whose payment failed, with what is still owed', async () => {
    const customer = await createUser(app.db);
    const sub = await subscription(customer, 'on_hold');
    const hour = 3_600_000;
    await invoice(customer, {
      status: 'open',
      subscriptionId: sub.id,
      lastFailure: 'Your card was declined.',
      amountPaid: 200,
      issuedAt: new Date(Date.now() + hour),
    });
    // Paid, or open without a failure: nothing to chase.
    await invoice(customer, { status: 'paid', lastFailure: 'old failure', amountPaid: 1200 });
    await invoice(customer, { status: 'open' });
    // The account is gone: the row stays, without a customer to link to.
    await invoice(null, {
      status: 'open',
      lastFailure: 'Insufficient funds',
      issuedAt: new Date(Date.now() + 2 * hour),
    });

    const answer = await api(e.summary, { cookie: admin.cookie });
    expect(answer.status).toBe(200);
    const [gone, declined] = answer.data.attention.latest;
    expect(gone).toMatchObject({ customer: null, reason: 'Insufficient funds', amount: 1200 });
    expect(declined).toMatchObject({
      customer: { id: customer.id, email: customer.email },
      subscription_id: sub.id,
      gateway: 'sandbox',
      amount: 1000,
      currency: 'EUR',
      reason: 'Your card was declined.',
    });
    expect(answer.data.attention.invoices).toBeGreaterThanOrEqual(2);
    expect(answer.data.attention.latest.length).toBeLessThanOrEqual(5);
  });

  it('counts customers who signed up today and this month, UTC', async () => {
    const now = new Date('2031-03-15T10:00:00Z');
    const before = await dashboardSummary(app.db, now);
    await createUser(app.db, { createdAt: new Date('2031-03-15T00:00:00Z') });
    await createUser(app.db, { createdAt: new Date('2031-03-01T00:00:00Z') });
    await createUser(app.db, { createdAt: new Date('2031-02-28T23:59:59Z') });
    // Staff accounts are not customers.
    await createUser(app.db, { role: 'AUTHOR', createdAt: new Date('2031-03-15T01:00:00Z') });
    const after = await dashboardSummary(app.db, now);
    expect(after.new_customers.today - before.new_customers.today).toBe(1);
    expect(after.new_customers.month - before.new_customers.month).toBe(2);
  });

  it('is for admins only', async () => {
    const author = await signedInUser(app, { role: 'AUTHOR' });
    const customer = await signedInUser(app);
    expect((await api(e.summary, { cookie: author.cookie })).status).toBe(403);
    expect((await api(e.summary, { cookie: customer.cookie })).status).toBe(403);
    expect((await api(e.summary, {})).status).toBe(401);
  });
});
