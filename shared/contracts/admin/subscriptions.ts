import { z } from 'zod';
import { GATEWAY_NAMES } from '../../billing/billing-values.ts';
import { SERVICE_ID_LIST, SUBSCRIPTION_STATUSES } from '../../subscription/actions.ts';
import { recordId, recordIdNumber } from '../../validation/record-id.ts';
import { endpoint } from '../endpoint.ts';
import { listResponse, pagingQuery, searchFilter, sortQuery } from '../list.ts';

// §7 dashboard /subscriptions: every customer's subscriptions as staff see them, and what
// staff may do to one: cancel (now or at the period's end), resume, refund. Each action is
// asked of the subscription's own gateway, then applied as the customer's own actions are,
// so the customer's open pages hear of it. Admin only, while the billing flag is on.

const invalid = { error: 'input_errors.field_is_invalid' };
const day = z.iso.date(invalid);

/** Message keys these calls (and the invoice refund) answer with. */
export const SALES_MESSAGES = {
  subscriptionNotFound: 'staff_sales.errors.subscription_not_found',
  invoiceNotFound: 'staff_sales.errors.invoice_not_found',
  notThisPlan: 'staff_sales.errors.not_this_plan',
  notThisService: 'staff_sales.errors.not_this_service',
  notAllowed: 'staff_sales.errors.not_allowed',
  gatewayRefused: 'staff_sales.errors.gateway_refused',
  gatewayUnavailable: 'staff_sales.errors.gateway_unavailable',
  nothingToRefund: 'staff_sales.errors.nothing_to_refund',
  refundTooLarge: 'staff_sales.errors.refund_too_large',
  refundInProgress: 'staff_sales.errors.refund_in_progress',
  addressRequired: 'staff_sales.errors.address_required',
  wholeOnly: 'staff_sales.errors.whole_only',
  rangeInvalid: 'staff_sales.errors.range_invalid',
} as const;

/** A service id from a query string (`?service_id=1`). */
export const serviceIdFilter = z.coerce.number(invalid).pipe(z.literal(SERVICE_ID_LIST, invalid));

/** A range of days, both ends included: `to` may not come before `from`. */
export function withDayRange<T extends z.ZodObject>(schema: T) {
  return schema.superRefine((value: { from?: string; to?: string }, context) => {
    if (value.from && value.to && value.to < value.from) {
      context.addIssue({ code: 'custom', path: ['to'], message: SALES_MESSAGES.rangeInvalid });
    }
  });
}

export const adminSubscription = z
  .object({
    subscription_id: z.number().int(),
    status: z.enum(SUBSCRIPTION_STATUSES),
    service_id: z.literal(SERVICE_ID_LIST),
    gateway: z.enum(GATEWAY_NAMES),
    onetime: z.boolean(),
    cancel_at_period_end: z.boolean(),
    /** The plan product; `family` is §3 plan.plan_id. */
    plan: z.object({ product_id: z.number().int(), family: z.string(), name: z.string() }),
    customer: z.object({ id: z.number().int(), email: z.string(), name: z.string().nullable() }),
    currency: z.string(),
    /** A period's price before any discount, in minor units. */
    amount: z.number().int(),
    current_period_start: z.iso.datetime({ offset: true }).nullable(),
    current_period_end: z.iso.datetime({ offset: true }).nullable(),
    canceled_at: z.iso.datetime({ offset: true }).nullable(),
    ended_at: z.iso.datetime({ offset: true }).nullable(),
    created_at: z.iso.datetime({ offset: true }),
    /** Its latest paid invoice and what is left of it to give back (minor units). */
    latest_paid_invoice_id: z.number().int().nullable(),
    refundable: z.number().int(),
    /** What staff may ask of it now (the same rules the server applies). */
    actions: z.object({
      cancel_now: z.boolean(),
      cancel_at_period_end: z.boolean(),
      resume: z.boolean(),
      refund: z.boolean(),
    }),
  })
  .meta({ id: 'AdminSubscription' });
export type AdminSubscription = z.infer<typeof adminSubscription>;

export const SUBSCRIPTION_SORTS = ['created_at', 'current_period_end', 'amount', 'id'] as const;

/**
 * Filters: status, service (or gateway), plan (its product, or its family), customer (by id,
 * or a search by e-mail or name), the days it was created in (UTC, both ends included).
 */
export const subscriptionsQuery = withDayRange(
  pagingQuery.merge(sortQuery(SUBSCRIPTION_SORTS, 'created_at')).extend({
    status: z.enum(SUBSCRIPTION_STATUSES, invalid).optional(),
    service_id: serviceIdFilter.optional(),
    gateway: z.enum(GATEWAY_NAMES, invalid).optional(),
    product_id: recordId.optional(),
    plan: z.string().trim().max(64).optional(),
    user_id: recordId.optional(),
    search: searchFilter,
    from: day.optional(),
    to: day.optional(),
  }),
);
export type SubscriptionsQuery = z.infer<typeof subscriptionsQuery>;

export const subscriptionAnswer = z.object({ subscription: adminSubscription });
export type SubscriptionAnswer = z.infer<typeof subscriptionAnswer>;

/** A crypto wallet to send a Cryptomus refund to (only the customer can give one). */
export const walletAddress = z
  .string(invalid)
  .trim()
  .min(20, invalid)
  .max(128, invalid)
  .regex(/^[A-Za-z0-9:_-]+$/, invalid);

/** §7 cancel: `plan_id` names the subscription's plan product, as a check of what is meant. */
export const subscriptionCancelRequest = z.object({
  plan_id: recordIdNumber,
  subscription_id: recordIdNumber,
  atThePeriodEnd: z.boolean(invalid),
});

export const subscriptionResumeRequest = z.object({ subscription_id: recordIdNumber });

/**
 * §7 refund: ends the subscription now at its gateway and gives back what is left of its
 * latest paid invoice (§4 refunded). `service_id` must be the subscription's; `address` is
 * the customer's wallet, needed for crypto (service 6).
 */
export const subscriptionRefundRequest = z.object({
  service_id: z.literal(SERVICE_ID_LIST, invalid),
  subscription_id: recordIdNumber,
  address: walletAddress.optional(),
});

const admin = {
  base: 'dashboard',
  access: { permission: 'commerce' },
  feature: 'billing',
  tag: 'subscriptions',
} as const;

export const subscriptionEndpoints = {
  list: endpoint({
    ...admin,
    method: 'GET',
    path: '/subscriptions',
    summary: 'Subscriptions of all customers: filter, sort, a page at a time',
    query: subscriptionsQuery,
    response: listResponse(adminSubscription),
  }),
  cancel: endpoint({
    ...admin,
    method: 'POST',
    path: '/subscriptions/cancel',
    summary: 'Cancel at its gateway, now or at the end of the paid period',
    body: subscriptionCancelRequest,
    response: subscriptionAnswer,
  }),
  resume: endpoint({
    ...admin,
    method: 'POST',
    path: '/subscriptions/resume',
    summary: 'Undo a cancel at period end, at its gateway',
    body: subscriptionResumeRequest,
    response: subscriptionAnswer,
  }),
  refund: endpoint({
    ...admin,
    method: 'POST',
    path: '/subscriptions/refund',
    summary: 'End it now and give back what is left of its latest paid invoice',
    body: subscriptionRefundRequest,
    response: subscriptionAnswer.extend({ refunded: z.number().int() }),
  }),
};
