import { eq, sql } from 'drizzle-orm';
import type { CouponTerms } from '#shared/billing/pricing.ts';
import { BILLING_MESSAGES } from '#shared/contracts/billing.ts';
import type { Database } from '../../db/client.ts';
import { type CouponRow, couponProducts, coupons } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';

const couponError = (message: string) => AppError.field('coupon', message);

/**
 * Why a coupon cannot be used at `now`, whatever it is used on; null when it can. A coupon
 * staff deleted reads as unknown: it is gone for customers, kept only for what names it.
 */
export function couponRefusal(coupon: CouponRow, now: Date): string | null {
  if (coupon.deletedAt) return BILLING_MESSAGES.couponUnknown;
  if (coupon.expiresAt && coupon.expiresAt <= now) return BILLING_MESSAGES.couponExpired;
  if (coupon.maxRedemptions !== null && coupon.timesRedeemed >= coupon.maxRedemptions) {
    return BILLING_MESSAGES.couponUsedUp;
  }
  return null;
}

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
  const refusal = couponRefusal(coupon, now);
  if (refusal) throw couponError(refusal);
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
