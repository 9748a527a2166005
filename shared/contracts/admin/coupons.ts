import { z } from 'zod';
import { BILLING_INTERVALS, COUPON_DURATIONS } from '../../billing/billing-values.ts';
import { SERVICE_ID_LIST } from '../../subscription/actions.ts';
import { recordId, recordIdNumber } from '../../validation/record-id.ts';
import { requiredString } from '../../validation/required.ts';
import { endpoint } from '../endpoint.ts';
import { booleanFilter, listResponse, pagingQuery, searchFilter, sortQuery } from '../list.ts';

// §2 /admin/coupons (overview, preapplied) and /admin/coupons/{coupon_id}; §7 dashboard
// /coupons. Admin only, while the billing flag is on. Amounts are integer minor units of
// the coupon's currency. And the one public call behind a pre-applied coupon's link.

const invalid = { error: 'input_errors.field_is_invalid' };
const required = { error: 'input_errors.field_is_required' };
const isoDate = z.iso.datetime({ offset: true });

/** Message keys these calls answer with (staff's own texts, admin-coupons.json). */
export const COUPON_MESSAGES = {
  codeTaken: 'staff_coupons.errors.code_taken',
  codeFormat: 'staff_coupons.errors.code_format',
  /** A redeemed coupon's discount is what customers were promised: it stays as it is. */
  termsLocked: 'staff_coupons.errors.terms_locked',
  capBelowRedeemed: 'staff_coupons.errors.cap_below_redeemed',
  currencyNeeded: 'staff_coupons.errors.currency_needed',
  monthsNeeded: 'staff_coupons.errors.months_needed',
  expiryPast: 'staff_coupons.errors.expiry_past',
  deleted: 'staff_coupons.errors.deleted',
} as const;

/** Letters, digits, `-` and `_`: what a customer can type and a link can carry as it is. */
export const COUPON_CODE_PATTERN = /^[A-Za-z0-9_-]{3,64}$/;
const couponCode = z
  .string(required)
  .trim()
  .min(1, { error: required.error, abort: true })
  .regex(COUPON_CODE_PATTERN, { error: COUPON_MESSAGES.codeFormat });

/**
 * Where a coupon stands: usable; past its expiry; redeemed as often as its cap allows;
 * deleted by staff (never usable again, kept for the invoices that name it).
 */
export const COUPON_STATES = ['active', 'expired', 'used_up', 'deleted'] as const;
export type CouponState = (typeof COUPON_STATES)[number];

export const DISCOUNT_TYPES = ['percent', 'amount'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/** A coupon in staff's lists. */
export const adminCoupon = z
  .object({
    coupon_id: z.number().int(),
    code: z.string(),
    name: z.string(),
    discount_type: z.enum(DISCOUNT_TYPES),
    percent_off: z.number().int().nullable(),
    amount_off: z.number().int().nullable(),
    currency: z.string().nullable(),
    duration: z.enum(COUPON_DURATIONS),
    duration_in_months: z.number().int().nullable(),
    expires_at: isoDate.nullable(),
    max_redemptions: z.number().int().nullable(),
    times_redeemed: z.number().int(),
    preapplied: z.boolean(),
    state: z.enum(COUPON_STATES),
    /** The products it is limited to; empty: every product. */
    product_ids: z.array(z.number().int()),
    deleted_at: isoDate.nullable(),
    created_at: isoDate,
  })
  .meta({ id: 'AdminCoupon' });
export type AdminCoupon = z.infer<typeof adminCoupon>;

/** A product a coupon is limited to, as the coupon page names it. */
export const couponProduct = z.object({
  product_id: z.number().int(),
  service_id: z.literal(SERVICE_ID_LIST),
  name: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  interval: z.enum(BILLING_INTERVALS).nullable(),
  interval_count: z.number().int(),
  deleted: z.boolean(),
});
export type CouponProduct = z.infer<typeof couponProduct>;

/** The coupon page: the coupon, its products, and what may still change. */
export const adminCouponDetail = adminCoupon
  .extend({
    products: z.array(couponProduct),
    /** Redemptions listed (a use reserved by an order still at the gateway is not yet). */
    redemptions_count: z.number().int(),
    /**
     * Once redeemed (or taken by an order under way), the code and the discount (type,
     * percent, amount, currency, duration, months) are fixed: invoices and the gateways'
     * copies of the coupon name them.
     */
    terms_locked: z.boolean(),
  })
  .meta({ id: 'AdminCouponDetail' });
export type AdminCouponDetail = z.infer<typeof adminCouponDetail>;

export const couponResponse = z.object({ coupon: adminCouponDetail });

export const COUPON_SORTS = ['created_at', 'code', 'name', 'expires_at', 'times_redeemed'] as const;

/**
 * §2 coupons overview: search by code or name; by state (none given: every coupon not
 * deleted), pre-applied or not, discount type; sorted; paged.
 */
export const couponsQuery = pagingQuery.merge(sortQuery(COUPON_SORTS, 'created_at')).extend({
  search: searchFilter,
  state: z.enum(COUPON_STATES, invalid).optional(),
  preapplied: booleanFilter,
  discount_type: z.enum(DISCOUNT_TYPES, invalid).optional(),
});
export type CouponsQuery = z.infer<typeof couponsQuery>;

const whole = (min: number, max: number) =>
  z.number(invalid).int(invalid).min(min, invalid).max(max, invalid);

/**
 * Every field staff set. `percent_off` is for the percent type, `amount_off` with its
 * `currency` for the amount type (the other is ignored); `duration_in_months` for
 * `repeating`. Cross-field rules are messages under the field concerned.
 */
const couponShape = z.object({
  code: couponCode,
  name: requiredString(255),
  discount_type: z.enum(DISCOUNT_TYPES, invalid),
  percent_off: whole(1, 100).nullable().default(null),
  amount_off: whole(1, 100_000_000).nullable().default(null),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, invalid)
    .nullable()
    .default(null),
  duration: z.enum(COUPON_DURATIONS, invalid),
  duration_in_months: whole(1, 120).nullable().default(null),
  expires_at: isoDate.nullable().default(null),
  max_redemptions: whole(1, 10_000_000).nullable().default(null),
  preapplied: z.boolean(invalid).default(false),
  product_ids: z.array(recordIdNumber).max(200, invalid).default([]),
});

function checkTerms(coupon: z.output<typeof couponShape>, context: z.RefinementCtx) {
  const need = (path: string, message: string = required.error) =>
    context.addIssue({ code: 'custom', path: [path], message });
  if (coupon.discount_type === 'percent' && coupon.percent_off === null) need('percent_off');
  if (coupon.discount_type === 'amount') {
    if (coupon.amount_off === null) need('amount_off');
    if (coupon.currency === null) need('currency', COUPON_MESSAGES.currencyNeeded);
  }
  if (coupon.duration === 'repeating' && coupon.duration_in_months === null) {
    need('duration_in_months', COUPON_MESSAGES.monthsNeeded);
  }
}

export const couponFields = couponShape.superRefine(checkTerms);
export type CouponFields = z.output<typeof couponFields>;

export const couponCreateRequest = couponFields;
export type CouponCreateRequest = z.output<typeof couponCreateRequest>;

export const couponIdInput = z.object({ coupon_id: recordIdNumber });

/** The whole coupon again, as the edit form holds it. */
export const couponUpdateRequest = couponShape
  .extend({ coupon_id: recordIdNumber })
  .superRefine(checkTerms);
export type CouponUpdateRequest = z.output<typeof couponUpdateRequest>;

const massIds = z.array(recordIdNumber).min(1, required).max(100, invalid);

/** One change to many coupons at once: pre-applied on or off, a new expiry, or delete. */
export const couponMassUpdateRequest = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('preapplied'), ids: massIds, preapplied: z.boolean(invalid) }),
    z.object({ action: z.literal('expiry'), ids: massIds, expires_at: isoDate.nullable() }),
    z.object({ action: z.literal('delete'), ids: massIds }),
  ],
  invalid,
);
export type CouponMassUpdateRequest = z.output<typeof couponMassUpdateRequest>;

/** Who redeemed a coupon, on which subscription, and what its first invoice took off. */
export const couponRedemption = z
  .object({
    redemption_id: z.number().int(),
    user_id: z.number().int().nullable(),
    email: z.string().nullable(),
    subscription_id: z.number().int().nullable(),
    redeemed_at: isoDate,
    /** The first invoice the coupon discounted on that subscription, when there is one. */
    invoice: z
      .object({
        invoice_id: z.number().int(),
        number: z.string().nullable(),
        currency: z.string(),
        discount: z.number().int(),
        total: z.number().int(),
      })
      .nullable(),
  })
  .meta({ id: 'CouponRedemption' });
export type CouponRedemption = z.infer<typeof couponRedemption>;

export const couponRedemptionsQuery = pagingQuery.extend({ coupon_id: recordId });

/** The pre-applied link: `/api/public/v1/coupons/apply/{code}?lang=en`. */
// Anything is accepted and checked by the handler: a link answers with a redirect, never an error.
export const couponApplyParams = z.object({ code: z.string() });
export const couponApplyQuery = z.object({ lang: z.string().optional() });

/** The cookie the order page reads a pre-applied coupon from (never httpOnly: it reads it). */
export const COUPON_COOKIE = 'coupon';

const admin = {
  base: 'dashboard',
  access: { permission: 'commerce' },
  feature: 'billing',
  tag: 'coupons',
} as const;

export const couponEndpoints = {
  list: endpoint({
    ...admin,
    method: 'GET',
    path: '/coupons',
    summary: 'Coupons: search, filter, sort, a page at a time',
    query: couponsQuery,
    response: listResponse(adminCoupon),
  }),
  view: endpoint({
    ...admin,
    method: 'GET',
    path: '/coupons/view',
    summary: 'One coupon with its products and counts',
    query: z.object({ coupon_id: recordId }),
    response: couponResponse,
  }),
  redemptions: endpoint({
    ...admin,
    method: 'GET',
    path: '/coupons/redemptions',
    summary: "A coupon's redemptions, the newest first",
    query: couponRedemptionsQuery,
    response: listResponse(couponRedemption),
  }),
  create: endpoint({
    ...admin,
    method: 'POST',
    path: '/coupons/create',
    summary: 'Create a coupon',
    body: couponCreateRequest,
    response: couponResponse,
    status: 201,
  }),
  update: endpoint({
    ...admin,
    method: 'POST',
    path: '/coupons/update',
    summary: 'Change a coupon; once redeemed, its code and discount stay',
    body: couponUpdateRequest,
    response: couponResponse,
  }),
  delete: endpoint({
    ...admin,
    method: 'POST',
    path: '/coupons/delete',
    summary: 'Delete a coupon: never usable again, kept for the invoices naming it',
    body: couponIdInput,
    response: z.object({ success: z.literal(true) }),
  }),
  massUpdate: endpoint({
    ...admin,
    method: 'POST',
    path: '/coupons/mass-update',
    summary: 'Pre-apply, set the expiry of, or delete several coupons',
    body: couponMassUpdateRequest,
    response: z.object({ updated: z.number().int() }),
  }),
  /** A pre-applied coupon's link: sets the coupon cookie, then opens the order page. */
  apply: endpoint({
    method: 'GET',
    base: 'public',
    access: 'public',
    feature: 'billing',
    tag: 'coupons',
    path: '/coupons/apply/:code',
    summary: 'Open the order page with a pre-applied coupon',
    params: couponApplyParams,
    query: couponApplyQuery,
    produces: 'redirect',
  }),
};
