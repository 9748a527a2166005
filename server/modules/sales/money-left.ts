import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { invoices, payments, refunds } from '../../db/schema/index.ts';

// What is left to give back is read from what we hold: each payment's amount less the
// refunds recorded against it, and never more than the invoice says is paid and not yet
// refunded (a gateway that reports refunds only on the invoice, as PayPal's reads do).

const refundedOf = (paymentId: typeof payments.id) =>
  sql<number>`coalesce((select sum(${refunds.amount}) from ${refunds} where ${refunds.paymentId} = ${paymentId}), 0)::int`;

export interface PaymentLeft {
  id: number;
  ref: string;
  left: number;
  /** Refunds already recorded on it. */
  refundCount: number;
}

/** The invoice's succeeded payments, oldest first, each with what is left of it. */
export async function paymentsLeft(db: Database, invoiceId: number): Promise<PaymentLeft[]> {
  const rows = await db
    .select({
      id: payments.id,
      ref: payments.gatewayRef,
      amount: payments.amount,
      refunded: refundedOf(payments.id),
      refundCount: sql<number>`(select count(*) from ${refunds} where ${refunds.paymentId} = ${payments.id})::int`,
    })
    .from(payments)
    .where(and(eq(payments.invoiceId, invoiceId), eq(payments.status, 'succeeded')))
    .orderBy(asc(payments.id));
  return rows.map((row) => ({
    id: row.id,
    ref: row.ref,
    left: Math.max(0, row.amount - row.refunded),
    refundCount: row.refundCount,
  }));
}

/** What may still be given back of an invoice. */
export function leftOf(
  invoice: { amountPaid: number; amountRefunded: number },
  left: readonly PaymentLeft[],
): number {
  const byPayments = left.reduce((sum, payment) => sum + payment.left, 0);
  return Math.max(0, Math.min(byPayments, invoice.amountPaid - invoice.amountRefunded));
}

/** The same as SQL, for rows of a query over `invoices`. */
export const leftSql = sql<number>`greatest(0, least(
  coalesce((select sum(${payments.amount}) from ${payments} where ${payments.invoiceId} = ${invoices.id} and ${payments.status} = 'succeeded'), 0)
    - coalesce((select sum(${refunds.amount}) from ${refunds} where ${refunds.invoiceId} = ${invoices.id}), 0),
  ${invoices.amountPaid} - ${invoices.amountRefunded}
))::int`;

/** The latest paid invoice of each subscription named, with what is left of it. */
export async function latestPaidOf(
  db: Database,
  subscriptionIds: readonly number[],
): Promise<Map<number, { invoiceId: number; left: number }>> {
  if (subscriptionIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([invoices.subscriptionId], {
      subscriptionId: invoices.subscriptionId,
      invoiceId: invoices.id,
      left: leftSql,
    })
    .from(invoices)
    .where(
      and(
        inArray(invoices.subscriptionId, [...subscriptionIds]),
        eq(invoices.status, 'paid'),
        gt(invoices.amountPaid, 0),
      ),
    )
    .orderBy(invoices.subscriptionId, desc(invoices.issuedAt), desc(invoices.id));
  return new Map(
    rows.map((row) => [row.subscriptionId as number, { invoiceId: row.invoiceId, left: row.left }]),
  );
}

/** A subscription's latest paid invoice (the one a refund gives back), if any. */
export async function latestPaidInvoice(db: Database, subscriptionId: number) {
  const [row] = await db
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.subscriptionId, subscriptionId),
        eq(invoices.status, 'paid'),
        gt(invoices.amountPaid, 0),
      ),
    )
    .orderBy(desc(invoices.issuedAt), desc(invoices.id))
    .limit(1);
  return row ?? null;
}
