import { and, count, desc, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import {
  ATTENTION_LIST_SIZE,
  type DashboardSummary,
  RUNNING_STATUSES,
} from '#shared/contracts/admin/dashboard.ts';
import type { Database } from '../../db/client.ts';
import { invoices, subscriptions, users } from '../../db/schema/index.ts';

const ATTENTION_STATUSES = ['on_hold', 'failed'] as const;

/** Midnight UTC of `now`'s day and of its month's first day. */
export function dayAndMonthStart(now: Date): { day: Date; month: Date } {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return {
    day: new Date(Date.UTC(year, month, now.getUTCDate())),
    month: new Date(Date.UTC(year, month, 1)),
  };
}

/**
 * The admin dashboard's counts. Each query stays on an index whatever the shop's size:
 * subscriptions by status on `subscriptions_status_idx` (status, current_period_end), and only
 * the running statuses, never the ever-growing expired ones; failed payments on
 * `invoices_status_idx` (status, issued_at), open invoices only, newest first. New customers
 * read `users` from this month's first day; `users` has no index on created_at, so that one
 * scans the table (fine for hundreds of thousands of accounts; an index on created_at would
 * make it a range read).
 */
export async function dashboardSummary(db: Database, now = new Date()): Promise<DashboardSummary> {
  const start = dayAndMonthStart(now);
  const failedOpen = and(eq(invoices.status, 'open'), isNotNull(invoices.lastFailure));
  const [byStatus, [signUps], [failedInvoices], latest] = await Promise.all([
    db
      .select({ status: subscriptions.status, count: count() })
      .from(subscriptions)
      .where(inArray(subscriptions.status, [...RUNNING_STATUSES]))
      .groupBy(subscriptions.status),
    db
      .select({
        today: sql<number>`count(*) filter (where ${users.createdAt} >= ${start.day})`.mapWith(
          Number,
        ),
        month: count(),
      })
      .from(users)
      .where(and(eq(users.role, 'USER'), gte(users.createdAt, start.month))),
    db.select({ count: count() }).from(invoices).where(failedOpen),
    db
      .select({
        invoice: invoices,
        customer: { id: users.id, email: users.email },
      })
      .from(invoices)
      .leftJoin(users, eq(users.id, invoices.userId))
      .where(failedOpen)
      .orderBy(desc(invoices.issuedAt), desc(invoices.id))
      .limit(ATTENTION_LIST_SIZE),
  ]);
  const counted = new Map(byStatus.map((row) => [row.status, row.count]));
  return {
    subscriptions: RUNNING_STATUSES.map((status) => ({ status, count: counted.get(status) ?? 0 })),
    new_customers: { today: signUps?.today ?? 0, month: signUps?.month ?? 0 },
    attention: {
      subscriptions: ATTENTION_STATUSES.reduce(
        (sum, status) => sum + (counted.get(status) ?? 0),
        0,
      ),
      invoices: failedInvoices?.count ?? 0,
      latest: latest.map(({ invoice, customer }) => ({
        invoice_id: invoice.id,
        subscription_id: invoice.subscriptionId,
        customer: customer?.id ? { id: customer.id, email: customer.email } : null,
        gateway: invoice.gateway,
        amount: Math.max(invoice.total - invoice.amountPaid, 0),
        currency: invoice.currency,
        reason: invoice.lastFailure ?? '',
        issued_at: invoice.issuedAt.toISOString(),
      })),
    },
  };
}
