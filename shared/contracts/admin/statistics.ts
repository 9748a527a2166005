import { z } from 'zod';
import { GATEWAY_NAMES } from '../../billing/billing-values.ts';
import { SERVICE_ID_LIST, SUBSCRIPTION_STATUSES } from '../../subscription/actions.ts';
import { endpoint } from '../endpoint.ts';

// §2 /admin/statistics/earnings/overview, subscriptions/overview and analytics; §7
// /invoices/stat-by-country. Admin only, while the billing flag is on. Money is integer minor
// units, always per currency: nothing here adds two currencies together.

const invalid = { error: 'input_errors.field_is_invalid' };
const money = z.number().int();
const day = z.iso.date(invalid);

/** The longest range one call covers: a statistics call stays cheap whatever is asked. */
export const MAX_RANGE_DAYS = 1100;

/**
 * A range of days, UTC, both ends included (`from` ≤ `to`, at most MAX_RANGE_DAYS). Days are
 * UTC days: a business reading its books by day reads them in one zone, the same for all staff.
 */
const rangeFields = z.object({ from: day, to: day });

/** Days between two ISO days; NaN when either is not one (its own field says so). */
const daysApart = (range: { from: string; to: string }) =>
  (Date.parse(range.to) - Date.parse(range.from)) / 86_400_000;

/** `from` ≤ `to`, at most MAX_RANGE_DAYS apart. */
function checkedRange<T extends z.ZodType<{ from: string; to: string }>>(schema: T) {
  return schema
    .refine((range) => !(daysApart(range) < 0), { error: invalid.error, path: ['to'] })
    .refine((range) => !(daysApart(range) >= MAX_RANGE_DAYS), {
      error: invalid.error,
      path: ['from'],
    });
}

/**
 * A range of days, UTC, both ends included. Days are UTC days: a business reading its books
 * by day reads them in one zone, the same for all staff.
 */
export const statisticsRange = checkedRange(rangeFields);
export type StatisticsRange = z.infer<typeof statisticsRange>;

/** Money of one currency over a period: paid in, given back, and what stays. */
const takings = z.object({
  currency: z.string(),
  /** Paid invoices' amount_paid, on the day they were paid. */
  gross: money,
  /** Refunds, on the day they were given. */
  refunds: money,
  /** gross − refunds. */
  net: money,
  /** Invoices paid. */
  payments: z.number().int(),
});
export type Takings = z.infer<typeof takings>;

export const earningsQuery = checkedRange(
  rangeFields.extend({ granularity: z.enum(['day', 'month'], invalid).default('day') }),
);

export const earningsResponse = z.object({
  /** Per currency: the whole range, and its series by day or month (`period` its first day). */
  currencies: z.array(
    takings.extend({ series: z.array(takings.omit({ currency: true }).extend({ period: day })) }),
  ),
  /** Per gateway and currency over the range. */
  by_gateway: z.array(
    takings.extend({
      gateway: z.enum(GATEWAY_NAMES),
      service_id: z.literal(SERVICE_ID_LIST),
    }),
  ),
});
export type EarningsResponse = z.infer<typeof earningsResponse>;

/** §7 GET /invoices/stat-by-country: takings per buyer's country and currency. */
export const statByCountryResponse = z.object({
  /** `country` is ISO 3166-1 alpha-2, null where the buyer gave none. */
  items: z.array(takings.extend({ country: z.string().nullable() })),
});
export type StatByCountryResponse = z.infer<typeof statByCountryResponse>;

/**
 * Monthly recurring revenue per currency at each month's end, and how it moved during the
 * month: new (subscriptions that started paying), expansion and contraction (plan changes),
 * churn (subscriptions that stopped), reactivation (came back after stopping). A yearly plan
 * counts its amount / 12.
 */
export const mrrResponse = z.object({
  months: z.array(
    z.object({
      /** `2026-11`. */
      month: z.string().regex(/^\d{4}-\d{2}$/),
      currency: z.string(),
      mrr: money,
      new: money,
      expansion: money,
      contraction: money,
      churn: money,
      reactivation: money,
    }),
  ),
});
export type MrrResponse = z.infer<typeof mrrResponse>;

export const subscriptionStatsResponse = z.object({
  /** Now, not in the range: how many subscriptions are in each §4 status. */
  by_status: z.array(z.object({ status: z.enum(SUBSCRIPTION_STATUSES), count: z.number().int() })),
  /** Now: running subscriptions (active, paused, canceled, on hold) per plan product. */
  by_plan: z.array(
    z.object({
      product_id: z.number().int(),
      name: z.string(),
      service_id: z.literal(SERVICE_ID_LIST),
      currency: z.string(),
      count: z.number().int(),
    }),
  ),
  /**
   * Per month of the range: orders started, and how many of them were paid for (their first
   * invoice paid); the product has no free trials, so a first payment is the conversion.
   */
  conversions: z.array(
    z.object({
      month: z.string().regex(/^\d{4}-\d{2}$/),
      started: z.number().int(),
      converted: z.number().int(),
    }),
  ),
  /**
   * Per month of the range: paying subscriptions at its start, how many stopped during it,
   * and the rate (churned / at start, 0…1; 0 when none were paying).
   */
  churn: z.array(
    z.object({
      month: z.string().regex(/^\d{4}-\d{2}$/),
      active_at_start: z.number().int(),
      churned: z.number().int(),
      rate: z.number(),
    }),
  ),
});
export type SubscriptionStatsResponse = z.infer<typeof subscriptionStatsResponse>;

const admin = {
  base: 'dashboard',
  access: { permission: 'statistics' },
  feature: 'billing',
  tag: 'statistics',
} as const;

export const statisticsEndpoints = {
  earnings: endpoint({
    ...admin,
    method: 'GET',
    path: '/statistics/earnings',
    summary: 'Takings per currency by day or month, and per gateway, over a range of days',
    query: earningsQuery,
    response: earningsResponse,
  }),
  byCountry: endpoint({
    ...admin,
    method: 'GET',
    path: '/invoices/stat-by-country',
    summary: "Takings per buyer's country and currency over a range of days",
    query: statisticsRange,
    response: statByCountryResponse,
  }),
  mrr: endpoint({
    ...admin,
    method: 'GET',
    path: '/statistics/mrr',
    summary: 'Monthly recurring revenue per currency and its movement, month by month',
    query: statisticsRange,
    response: mrrResponse,
  }),
  subscriptions: endpoint({
    ...admin,
    method: 'GET',
    path: '/statistics/subscriptions',
    summary: 'Subscriptions by status and plan now; conversions and churn by month',
    query: statisticsRange,
    response: subscriptionStatsResponse,
  }),
};
