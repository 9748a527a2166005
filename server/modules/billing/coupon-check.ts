import { eq, sql } from 'drizzle-orm';
import type { CouponTerms } from '#shared/billing/pricing.ts';
import { BILLING_MESSAGES } from '#shared/contracts/billing.ts';
import type { Database } from '../../db/client.ts';
import { type CouponRow, couponProducts, coupons } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';

const couponError = (message: string) => AppError.field('coupon', message);

/**
 * The coupon a customer typed (or the coupon cookie carried), checked for an order of
 * `productIds` at `now`: unknown, expired, used up or not for these products is a message
 * under the coupon field (§ issue "bad input").
 */
export async function usableCoupon(
  db: Database,
  code: string,
  productIds: readonly number[],
  now: Date,
): Promise<CouponRow> {
  const [coupon] = await db
    .select()
    .from(coupons)
    .where(eq(sql`lower(${coupons.code})`, code.trim().toLowerCase()))
    .limit(1);
  if (!coupon) throw couponError(BILLING_MESSAGES.couponUnknown);
  if (coupon.expiresAt && coupon.expiresAt <= now)
    throw couponError(BILLING_MESSAGES.couponExpired);
  if (coupon.maxRedemptions !== null && coupon.timesRedeemed >= coupon.maxRedemptions) {
    throw couponError(BILLING_MESSAGES.couponUsedUp);
  }
  const limited = await db
    .select({ productId: couponProducts.productId })
    .from(couponProducts)
    .where(eq(couponProducts.couponId, coupon.id));
  if (limited.length > 0 && !limited.some((row) => productIds.includes(row.productId))) {
    throw couponError(BILLING_MESSAGES.couponNotForProduct);
  }
  return coupon;
}

export function couponTerms(coupon: CouponRow): CouponTerms {
  return {
    percentOff: coupon.percentOff,
    amountOff: coupon.amountOff,
    currency: coupon.currency,
    duration: coupon.duration,
    durationInMonths: coupon.durationInMonths,
  };
}
