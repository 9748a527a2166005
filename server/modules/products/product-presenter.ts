import { and, desc, inArray, sql } from 'drizzle-orm';
import type { GatewayName } from '#shared/billing/billing-values.ts';
import type { AdminProduct } from '#shared/contracts/admin/products.ts';
import { RUNNING_STATUSES } from '#shared/subscription/actions.ts';
import type { Database } from '../../db/client.ts';
import {
  gatewayPrices,
  type ProductRow,
  subscriptionItems,
  subscriptions,
} from '../../db/schema/index.ts';
import { includesOf, presentProduct } from '../billing/catalog.ts';

/**
 * Running subscriptions per product, as their plan or as one of their items: they keep it
 * from being deleted.
 */
export async function runningSubscriptions(
  db: Database,
  productIds: number[],
): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (productIds.length === 0) return counts;
  const running = inArray(subscriptions.status, [...RUNNING_STATUSES]);
  const asPlan = db
    .select({ productId: subscriptions.productId, subscriptionId: subscriptions.id })
    .from(subscriptions)
    .where(and(running, inArray(subscriptions.productId, productIds)));
  const asItem = db
    .select({ productId: subscriptionItems.productId, subscriptionId: subscriptions.id })
    .from(subscriptionItems)
    .innerJoin(subscriptions, sql`${subscriptions.id} = ${subscriptionItems.subscriptionId}`)
    .where(and(running, inArray(subscriptionItems.productId, productIds)));
  // `union` drops the pairs both name (a plan is its subscription's first item too).
  const both = asPlan.union(asItem).as('uses');
  const rows = await db
    .select({ productId: both.productId, n: sql<number>`count(*)::int` })
    .from(both)
    .groupBy(both.productId);
  for (const row of rows) counts.set(row.productId, row.n);
  return counts;
}

async function pricesOf(db: Database, productIds: number[]) {
  const byProduct = new Map<number, { gateway: GatewayName; price_ref: string }[]>();
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .select()
    .from(gatewayPrices)
    .where(inArray(gatewayPrices.productId, productIds))
    .orderBy(desc(gatewayPrices.createdAt));
  for (const row of rows) {
    const list = byProduct.get(row.productId) ?? [];
    list.push({ gateway: row.gateway, price_ref: row.priceRef });
    byProduct.set(row.productId, list);
  }
  return byProduct;
}

/**
 * Products as staff see them: the order page's fields, the gateways' ids (newest first) and
 * how many running subscriptions use each. Four queries for any number of rows.
 */
export async function presentAdminProducts(
  db: Database,
  rows: ProductRow[],
): Promise<AdminProduct[]> {
  const ids = rows.map((row) => row.id);
  const [includes, prices, running] = await Promise.all([
    includesOf(db, ids),
    pricesOf(db, ids),
    runningSubscriptions(db, ids),
  ]);
  return rows.map((row) => ({
    ...presentProduct({ row, includes: includes.get(row.id) ?? [] }),
    device_limit: row.deviceLimit,
    gateway_prices: prices.get(row.id) ?? [],
    active_subscriptions: running.get(row.id) ?? 0,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }));
}

export async function presentAdminProduct(db: Database, row: ProductRow): Promise<AdminProduct> {
  const [product] = await presentAdminProducts(db, [row]);
  if (!product) throw new Error('a product presented as nothing');
  return product;
}
