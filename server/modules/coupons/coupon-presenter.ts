import type { AdminCoupon, CouponProduct, CouponState } from '#shared/contracts/admin/coupons.ts';
import type { CouponRow, ProductRow } from '../../db/schema/index.ts';

/** Where a coupon stands at `now` (billing's clock), in the order the states win. */
export function couponState(coupon: CouponRow, now: Date): CouponState {
  if (coupon.deletedAt) return 'deleted';
  if (coupon.expiresAt && coupon.expiresAt <= now) return 'expired';
  if (coupon.maxRedemptions !== null && coupon.timesRedeemed >= coupon.maxRedemptions) {
    return 'used_up';
  }
  return 'active';
}

export function presentCoupon(coupon: CouponRow, productIds: number[], now: Date): AdminCoupon {
  return {
    coupon_id: coupon.id,
    code: coupon.code,
    name: coupon.name,
    discount_type: coupon.percentOff !== null ? 'percent' : 'amount',
    percent_off: coupon.percentOff,
    amount_off: coupon.amountOff,
    currency: coupon.currency,
    duration: coupon.duration,
    duration_in_months: coupon.durationInMonths,
    expires_at: coupon.expiresAt?.toISOString() ?? null,
    max_redemptions: coupon.maxRedemptions,
    times_redeemed: coupon.timesRedeemed,
    preapplied: coupon.preapplied,
    state: couponState(coupon, now),
    product_ids: productIds,
    deleted_at: coupon.deletedAt?.toISOString() ?? null,
    created_at: coupon.createdAt.toISOString(),
  };
}

export function presentCouponProduct(product: ProductRow): CouponProduct {
  return {
    product_id: product.id,
    service_id: product.serviceId as CouponProduct['service_id'],
    name: product.name,
    amount: product.amount,
    currency: product.currency,
    interval: product.interval,
    interval_count: product.intervalCount,
    deleted: product.deletedAt !== null,
  };
}
