import { and, desc, eq, gt } from 'drizzle-orm';
import { GATEWAYS } from '#shared/billing/billing-values.ts';
import type { PendingPaymentResponse } from '#shared/contracts/billing.ts';
import type { Database } from '../../db/client.ts';
import { invoices } from '../../db/schema/index.ts';

/** A crypto invoice unconfirmed longer than this has expired at the processor. */
const PENDING_FOR_MS = 24 * 3_600_000;

/**
 * §3 "crypto approval pending": the customer's crypto invoice that the network has seen
 * but not confirmed (the Cryptomus adapter answers it `finalizing`). Nothing is granted
 * until the processor's status call says paid.
 */
export async function pendingPayment(
  db: Database,
  userId: number,
  now: Date,
): Promise<PendingPaymentResponse> {
  const [invoice] = await db
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.userId, userId),
        eq(invoices.gateway, 'cryptomus'),
        eq(invoices.status, 'finalizing'),
        gt(invoices.issuedAt, new Date(now.getTime() - PENDING_FOR_MS)),
      ),
    )
    .orderBy(desc(invoices.issuedAt), desc(invoices.id))
    .limit(1);
  if (!invoice) return { crypto_approval_pending: false, pending: null };
  return {
    crypto_approval_pending: true,
    pending: {
      invoice_id: invoice.id,
      service_id: GATEWAYS.cryptomus,
      amount: invoice.total,
      currency: invoice.currency,
      since: invoice.issuedAt.toISOString(),
    },
  };
}
