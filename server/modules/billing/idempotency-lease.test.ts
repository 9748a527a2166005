import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { queryRows } from '../../db/client.ts';
import { idempotencyKeys } from '../../db/schema/index.ts';
import { CARDS, cardToken, openShop } from '../../test/billing-kit.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser, type TestSession } from '../../test/test-sessions.ts';

// A process killed in the middle of an order (SIGKILL, a lost host) leaves its claims on the
// order's key and on the customer's order slot. They lapse: the customer's retry is taken
// up instead of being told "in progress" for ever, and the order is charged once.

describe('claims of a process that died', async () => {
  const { app } = await createTestApp();
  afterAll(() => app.close());
  const shop = await openShop(app);
  const product = await shop.plan('1 month');

  const orderBody = async (key: string) => ({
    product_id: product.id,
    addon_ids: [],
    payment: { service_id: 1 as const, token: await cardToken(app, CARDS.visa) },
    idempotency_key: key,
    lang: 'en' as const,
  });
  /** The rows a checkout holds while it works, as a killed process leaves them. */
  const leftBehind = async (buyer: TestSession, key: string, leaseUntil: Date) => {
    await app.db.insert(idempotencyKeys).values([
      { key: `checkout:${buyer.user.id}:${key}`, userId: buyer.user.id, leaseUntil },
      { key: `order-slot:${buyer.user.id}`, userId: buyer.user.id, leaseUntil },
    ]);
  };
  const paidInvoices = async (buyer: TestSession) => {
    const [row] = await queryRows<{ n: number }>(
      app.db,
      sql`select count(*)::int as n from invoices where user_id = ${buyer.user.id} and status = 'paid'`,
    );
    return row?.n;
  };

  it('takes up the retry of an order whose process died once the lease has lapsed', async () => {
    const buyer = await signedInUser(app);
    const key = randomUUID();
    await leftBehind(buyer, key, new Date(Date.now() - 1_000));
    const retried = await shop.call(billingEndpoints.checkout, {
      cookie: buyer.cookie,
      body: await orderBody(key),
    });
    expect(retried.status, retried.text).toBe(200);
    expect(await paidInvoices(buyer)).toBe(1);
    // The slot is free again and the key holds the answer.
    const rows = await app.db.select().from(idempotencyKeys);
    const mine = rows.filter((row) => row.userId === buyer.user.id);
    expect(mine.map((row) => [row.key.split(':')[0], row.response !== null])).toEqual([
      ['checkout', true],
    ]);
  });

  it('tells a second order that one is in progress while the first still holds its lease', async () => {
    const buyer = await signedInUser(app);
    // Another tab's order, alive: its process renews the lease.
    await app.db.insert(idempotencyKeys).values({
      key: `order-slot:${buyer.user.id}`,
      userId: buyer.user.id,
      leaseUntil: new Date(Date.now() + 30_000),
    });
    const second = await shop.call(billingEndpoints.checkout, {
      cookie: buyer.cookie,
      body: await orderBody(randomUUID()),
    });
    expect(second.status).toBe(409);
    expect(await paidInvoices(buyer)).toBe(0);
  });

  it('renews the lease while the work runs, and clears it with the answer', async () => {
    const buyer = await signedInUser(app);
    const key = randomUUID();
    const answer = await shop.call(billingEndpoints.checkout, {
      cookie: buyer.cookie,
      body: await orderBody(key),
    });
    expect(answer.status).toBe(200);
    const [row] = await app.db
      .select()
      .from(idempotencyKeys)
      .where(sql`${idempotencyKeys.key} = ${`checkout:${buyer.user.id}:${key}`}`);
    // Claimed with a lease some 30 s ahead of when the order began.
    expect(row?.leaseUntil?.getTime()).toBeGreaterThan(Date.now());
    expect(row?.response).not.toBeNull();
  });
});
