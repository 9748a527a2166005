import { z } from 'zod';
import { GATEWAY_NAMES } from '../../billing/billing-values.ts';
import { SUBSCRIPTION_STATUSES } from '../../subscription/actions.ts';
import { endpoint } from '../endpoint.ts';

// §2 /admin/dashboard: the counts the admin's landing page shows that no other call gives.
// Revenue is not here: the page asks statistics' earnings for today and the month so far,
// so takings are counted one way only.

/** The subscription statuses that still run (or may again): what "active" means here. */
export const RUNNING_STATUSES = ['active', 'paused', 'canceled', 'on_hold', 'failed'] as const;

/** How many failed payments the summary lists (the count covers all of them). */
export const ATTENTION_LIST_SIZE = 5;

/** An open invoice whose last payment attempt failed: staff may want to reach its customer. */
export const failedPayment = z.object({
  invoice_id: z.number().int(),
  subscription_id: z.number().int().nullable(),
  /** Null once the customer's account is gone. */
  customer: z.object({ id: z.number().int(), email: z.string() }).nullable(),
  gateway: z.enum(GATEWAY_NAMES),
  /** Still owed, in minor units of `currency`. */
  amount: z.number().int(),
  currency: z.string(),
  /** Why the gateway refused, in its words. */
  reason: z.string(),
  issued_at: z.iso.datetime({ offset: true }),
});
export type FailedPayment = z.infer<typeof failedPayment>;

export const dashboardSummaryResponse = z.object({
  /** Now: subscriptions in each running status (statuses with none are listed with 0). */
  subscriptions: z.array(
    z.object({ status: z.enum(SUBSCRIPTION_STATUSES), count: z.number().int() }),
  ),
  /** Customers (role USER) who signed up since the start of today and of this month, UTC. */
  new_customers: z.object({ today: z.number().int(), month: z.number().int() }),
  attention: z.object({
    /** Subscriptions on hold after a failed renewal, or failed outright. */
    subscriptions: z.number().int(),
    /** Open invoices whose last payment attempt failed. */
    invoices: z.number().int(),
    /** The newest of those invoices, at most ATTENTION_LIST_SIZE. */
    latest: z.array(failedPayment),
  }),
});
export type DashboardSummary = z.infer<typeof dashboardSummaryResponse>;

export const dashboardEndpoints = {
  summary: endpoint({
    base: 'dashboard',
    access: { permission: 'statistics' },
    feature: 'billing',
    tag: 'statistics',
    method: 'GET',
    path: '/dashboard/summary',
    summary: "The admin dashboard's counts: running subscriptions, new customers, failed payments",
    response: dashboardSummaryResponse,
  }),
};
