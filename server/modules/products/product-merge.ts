import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { type AdminProduct, PRODUCT_MESSAGES as M } from '#shared/contracts/admin/products.ts';
import type { Database } from '../../db/client.ts';
import { retryOnDeadlock } from '../../db/errors.ts';
import {
  couponProducts,
  gatewayPrices,
  invoiceLines,
  type ProductRow,
  productIncludes,
  products,
  subscriptionItems,
  subscriptions,
} from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { lockBooks } from '../billing/invoice-numbers.ts';
import { presentAdminProduct } from './product-presenter.ts';
import { findProduct } from './products-query.ts';
import { type Acting, audit, type ProductsDeps } from './products-service.ts';

// Two products that sell the same thing (made twice, or kept apart by an old price) become
// one: everything that named `from` names `into`, and `from` is deleted. The gateways'
// prices move too, so a webhook about a subscription made on `from`'s price still finds its
// product (billing/apply-snapshots.ts reads the product of a price from gateway_prices).

/** What must be equal for a subscription of one to be a subscription of the other. */
function sameTerms(a: ProductRow, b: ProductRow): boolean {
  return (
    a.serviceId === b.serviceId &&
    a.currency === b.currency &&
    a.onetime === b.onetime &&
    a.interval === b.interval &&
    a.intervalCount === b.intervalCount &&
    a.additional === b.additional
  );
}

async function lockLive(tx: Database, ids: number[]): Promise<Map<number, ProductRow>> {
  const rows = await tx
    .select()
    .from(products)
    .where(and(inArray(products.id, ids), sql`${products.deletedAt} is null`))
    .orderBy(products.id)
    .for('update');
  return new Map(rows.map((row) => [row.id, row]));
}

/** Moves a two-column key's `from` rows to `into`, dropping those `into` already has. */
async function moveLinks(tx: Database, fromId: number, intoId: number) {
  // Coupons that named `from` name `into` (the pair is the key: one row each).
  await tx.execute(sql`
    insert into ${couponProducts} (coupon_id, product_id)
    select coupon_id, ${intoId} from ${couponProducts} where product_id = ${fromId}
    on conflict do nothing`);
  await tx.delete(couponProducts).where(eq(couponProducts.productId, fromId));
  // Both sides of a plan's includes; never a product including itself.
  await tx.execute(sql`
    insert into ${productIncludes} (plan_id, addon_id)
    select ${intoId}, addon_id from ${productIncludes}
    where plan_id = ${fromId} and addon_id <> ${intoId}
    on conflict do nothing`);
  await tx.execute(sql`
    insert into ${productIncludes} (plan_id, addon_id)
    select plan_id, ${intoId} from ${productIncludes}
    where addon_id = ${fromId} and plan_id <> ${intoId}
    on conflict do nothing`);
  await tx
    .delete(productIncludes)
    .where(sql`${productIncludes.planId} = ${fromId} or ${productIncludes.addonId} = ${fromId}`);
}

export async function mergeProducts(
  deps: ProductsDeps,
  acting: Acting,
  fromId: number,
  intoId: number,
): Promise<AdminProduct> {
  if (fromId === intoId) throw AppError.field('into_product_id', M.mergeSame);
  // The merge locks both products first; a webhook inserting a subscription item of one of
  // them holds its subscription and waits for the product, so PostgreSQL may end one of the
  // two: ours goes again, from the start.
  const into = await retryOnDeadlock(() =>
    deps.db.transaction(async (tx) => {
      // The books before the products: the merge moves subscriptions, and a change of those
      // holding the books may wait on these products' rows (their foreign key).
      await lockBooks(tx);
      const live = await lockLive(tx, [fromId, intoId]);
      const from = live.get(fromId);
      const target = live.get(intoId);
      if (!from) throw AppError.field('from_product_id', M.mergeMismatch);
      if (!target || !sameTerms(from, target)) {
        throw AppError.field('into_product_id', M.mergeMismatch);
      }
      const plans = await tx
        .update(subscriptions)
        .set({ productId: intoId })
        .where(eq(subscriptions.productId, fromId))
        .returning({ id: subscriptions.id });
      // A subscription with both as items keeps one (the key is subscription and product).
      await tx.execute(sql`
      delete from ${subscriptionItems} f
      where f.product_id = ${fromId} and exists (
        select 1 from ${subscriptionItems} i
        where i.subscription_id = f.subscription_id and i.product_id = ${intoId})`);
      const items = await tx
        .update(subscriptionItems)
        .set({ productId: intoId })
        .where(eq(subscriptionItems.productId, fromId))
        .returning({ id: subscriptionItems.id });
      const lines = await tx
        .update(invoiceLines)
        .set({ productId: intoId })
        .where(eq(invoiceLines.productId, fromId))
        .returning({ id: invoiceLines.id });
      const prices = await tx
        .update(gatewayPrices)
        .set({ productId: intoId })
        .where(eq(gatewayPrices.productId, fromId))
        .returning({ ref: gatewayPrices.priceRef });
      await moveLinks(tx, fromId, intoId);
      await tx
        .update(products)
        .set({ additionalProductId: intoId })
        .where(and(eq(products.additionalProductId, fromId), ne(products.id, intoId)));
      // `into` offered `from` beside itself: it cannot offer itself.
      await tx
        .update(products)
        .set({ additionalProductId: null })
        .where(and(eq(products.id, intoId), eq(products.additionalProductId, fromId)));
      await tx
        .update(products)
        .set({ deletedAt: sql`now()`, asMostSelected: false, additionalProductId: null })
        .where(eq(products.id, fromId));
      await audit(tx, acting, 'products.merged', intoId, {
        from: { product_id: from.id, name: from.name },
        into: { product_id: target.id, name: target.name },
        moved: {
          subscriptions: plans.length,
          subscription_items: items.length,
          invoice_lines: lines.length,
          gateway_prices: prices.length,
        },
      });
      return target;
    }),
  );
  deps.catalog.invalidate();
  return presentAdminProduct(deps.db, await findProduct(deps.db, into.id));
}
