import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { gatewayPrices, products } from '../../db/schema/index.ts';
import { openShop } from '../../test/billing-kit.ts';
import { createTestApp } from '../../test/test-app.ts';
import { priceFor } from './gateway-refs.ts';

describe("a product's prices at a gateway", async () => {
  const { app } = await createTestApp();
  afterAll(() => app.close());
  const shop = await openShop(app);

  it('keeps the old price beside a new one, so subscriptions made on it still find it', async () => {
    const gateway = app.payments.get('sandbox');
    if (!gateway) throw new Error('the test app sells through the sandbox');
    const plan = await shop.plan('1 month');
    const first = await priceFor(app, gateway, plan);
    expect((await priceFor(app, gateway, plan)).ref).toBe(first.ref);
    // Staff raise the price: the gateway makes a new one, sold from now on.
    const [raised] = await app.db
      .update(products)
      .set({ amount: plan.amount + 100 })
      .where(eq(products.id, plan.id))
      .returning();
    const second = await priceFor(app, gateway, raised ?? plan);
    expect(second.ref).not.toBe(first.ref);
    const rows = await app.db
      .select()
      .from(gatewayPrices)
      .where(and(eq(gatewayPrices.productId, plan.id), eq(gatewayPrices.gateway, 'sandbox')));
    expect(rows.map((row) => row.priceRef).sort()).toEqual([first.ref, second.ref].sort());
    expect((await priceFor(app, gateway, raised ?? plan)).ref).toBe(second.ref);
  });
});
