import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lte,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { CouponState, CouponsQuery } from '#shared/contracts/admin/coupons.ts';
import { listPage, type PagingQuery, pageWindow } from '#shared/contracts/list.ts';
import type { Database } from '../../db/client.ts';
import { containing } from '../../db/like.ts';
import {
  couponProducts,
  couponRedemptions,
  coupons,
  invoices,
  users,
} from '../../db/schema/index.ts';
import { presentCoupon } from './coupon-presenter.ts';

const SORTS = {
  created_at: coupons.createdAt,
  code: sql`lower(${coupons.code})`,
  name: sql`lower(${coupons.name})`,
  expires_at: coupons.expiresAt,
  times_redeemed: coupons.timesRedeemed,
} as const;

/** The SQL of each state, matching couponState(): deleted wins, then expiry, then the cap. */
function inState(state: CouponState | undefined, now: Date): SQL | undefined {
  const live = isNull(coupons.deletedAt);
  const expired = and(isNotNull(coupons.expiresAt), lte(coupons.expiresAt, now));
  const usedUp = and(
    isNotNull(coupons.maxRedemptions),
    gte(coupons.timesRedeemed, coupons.maxRedemptions),
  );
  switch (state) {
    case undefined:
      return live;
    case 'deleted':
      return isNotNull(coupons.deletedAt);
    case 'expired':
      return and(live, expired);
    case 'used_up':
      return and(live, or(isNull(coupons.expiresAt), gt(coupons.expiresAt, now)), usedUp);
    case 'active':
      return and(
        live,
        or(isNull(coupons.expiresAt), gt(coupons.expiresAt, now)),
        or(
          isNull(coupons.maxRedemptions),
          sql`${coupons.timesRedeemed} < ${coupons.maxRedemptions}`,
        ),
      );
  }
}

function conditions(query: CouponsQuery, now: Date): SQL | undefined {
  const where: (SQL | undefined)[] = [inState(query.state, now)];
  if (query.search) {
    const pattern = containing(query.search);
    where.push(or(ilike(coupons.code, pattern), ilike(coupons.name, pattern)));
  }
  if (query.preapplied !== undefined) where.push(eq(coupons.preapplied, query.preapplied));
  if (query.discount_type === 'percent') where.push(isNotNull(coupons.percentOff));
  if (query.discount_type === 'amount') where.push(isNotNull(coupons.amountOff));
  return and(...where);
}

/** The products each coupon is limited to, by coupon id. */
export async function productIdsOf(
  db: Database,
  couponIds: readonly number[],
): Promise<Map<number, number[]>> {
  const byCoupon = new Map<number, number[]>(couponIds.map((id) => [id, []]));
  if (couponIds.length === 0) return byCoupon;
  const rows = await db
    .select()
    .from(couponProducts)
    .where(inArray(couponProducts.couponId, [...couponIds]))
    .orderBy(asc(couponProducts.productId));
  for (const row of rows) byCoupon.get(row.couponId)?.push(row.productId);
  return byCoupon;
}

/** §2 coupons overview: the coupons that match, in the order asked, a page at a time. */
export async function listCoupons(db: Database, query: CouponsQuery, now: Date) {
  const where = conditions(query, now);
  const order = query.direction === 'asc' ? asc : desc;
  // Coupons that never expire come last, whichever way the list is sorted.
  const by = sql`${SORTS[query.sort]} ${sql.raw(query.direction)} nulls last`;
  const { offset, limit } = pageWindow(query);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(coupons)
      .where(where)
      .orderBy(by, order(coupons.id))
      .offset(offset)
      .limit(limit),
    db.select({ n: count() }).from(coupons).where(where),
  ]);
  const products = await productIdsOf(
    db,
    rows.map((row) => row.id),
  );
  const items = rows.map((row) => presentCoupon(row, products.get(row.id) ?? [], now));
  return listPage(items, query, total?.n ?? 0);
}

/**
 * A coupon's redemptions, newest first: who, on which subscription, and the first invoice
 * of that subscription the coupon discounted.
 */
export async function listRedemptions(db: Database, couponId: number, paging: PagingQuery) {
  const where = eq(couponRedemptions.couponId, couponId);
  const { offset, limit } = pageWindow(paging);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: couponRedemptions.id,
        userId: couponRedemptions.userId,
        email: users.email,
        subscriptionId: couponRedemptions.subscriptionId,
        redeemedAt: couponRedemptions.redeemedAt,
      })
      .from(couponRedemptions)
      .leftJoin(users, eq(users.id, couponRedemptions.userId))
      .where(where)
      .orderBy(desc(couponRedemptions.redeemedAt), desc(couponRedemptions.id))
      .offset(offset)
      .limit(limit),
    db.select({ n: count() }).from(couponRedemptions).where(where),
  ]);
  const subscriptionIds = rows.flatMap((row) => (row.subscriptionId ? [row.subscriptionId] : []));
  const discounted =
    subscriptionIds.length === 0
      ? []
      : await db
          .select()
          .from(invoices)
          .where(
            and(
              inArray(invoices.subscriptionId, subscriptionIds),
              eq(invoices.couponId, couponId),
              gt(invoices.discountTotal, 0),
            ),
          )
          .orderBy(asc(invoices.issuedAt), asc(invoices.id));
  const first = new Map<number, (typeof discounted)[number]>();
  for (const invoice of discounted) {
    if (invoice.subscriptionId && !first.has(invoice.subscriptionId)) {
      first.set(invoice.subscriptionId, invoice);
    }
  }
  const items = rows.map((row) => {
    const invoice = row.subscriptionId ? first.get(row.subscriptionId) : undefined;
    return {
      redemption_id: row.id,
      user_id: row.userId,
      email: row.email,
      subscription_id: row.subscriptionId,
      redeemed_at: row.redeemedAt.toISOString(),
      invoice: invoice
        ? {
            invoice_id: invoice.id,
            number: invoice.number,
            currency: invoice.currency,
            discount: invoice.discountTotal,
            total: invoice.total,
          }
        : null,
    };
  });
  return listPage(items, paging, total?.n ?? 0);
}
