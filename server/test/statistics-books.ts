import { randomUUID } from 'node:crypto';
import type { GatewayName } from '#shared/billing/billing-values.ts';
import type { SubscriptionStatus } from '#shared/subscription/actions.ts';
import type { Database } from '../db/client.ts';
import { invoices, payments, refunds, subscriptions } from '../db/schema/index.ts';

// Hand-made books for the statistics tests: rows written straight into the tables, as the
// demo seed writes them, so that the rollups' triggers are what is tested.

const at = (iso: string) => new Date(iso);

export async function addSubscription(
  db: Database,
  values: {
    userId: number;
    productId: number;
    currency?: string;
    amount?: number;
    createdAt: string;
    status?: SubscriptionStatus;
    onetime?: boolean;
    gateway?: GatewayName;
  },
) {
  const [row] = await db
    .insert(subscriptions)
    .values({
      userId: values.userId,
      gateway: values.gateway ?? 'stripe',
      gatewayRef: `sub_${randomUUID()}`,
      serviceId: 1,
      productId: values.productId,
      status: values.status ?? 'active',
      onetime: values.onetime ?? false,
      paymentMethodType: 'card',
      currency: values.currency ?? 'USD',
      amount: values.amount ?? 1000,
      gatewayUpdatedAt: at(values.createdAt),
      createdAt: at(values.createdAt),
    })
    .returning();
  if (!row) throw new Error('no subscription');
  return row;
}

export interface InvoiceFixture {
  userId?: number | null;
  subscriptionId?: number | null;
  gateway?: GatewayName;
  currency?: string;
  amount: number;
  status?: 'paid' | 'open' | 'void';
  /** Paid at, for a paid invoice (default: period start). */
  paidAt?: string;
  periodStart?: string;
  periodEnd?: string;
  country?: string | null;
}

/** An invoice (paid unless told) with its payment. */
export async function addInvoice(db: Database, values: InvoiceFixture) {
  const status = values.status ?? 'paid';
  const paidAt = status === 'paid' ? at(values.paidAt ?? values.periodStart ?? '') : null;
  const [row] = await db
    .insert(invoices)
    .values({
      userId: values.userId ?? null,
      subscriptionId: values.subscriptionId ?? null,
      gateway: values.gateway ?? 'stripe',
      gatewayRef: `in_${randomUUID()}`,
      status,
      currency: values.currency ?? 'USD',
      subtotal: values.amount,
      total: values.amount,
      amountPaid: status === 'paid' ? values.amount : 0,
      periodStart: values.periodStart ? at(values.periodStart) : null,
      periodEnd: values.periodEnd ? at(values.periodEnd) : null,
      lang: 'en',
      buyer: { name: 'Buyer', email: 'buyer@example.com', lines: [] },
      country: values.country === undefined ? 'DE' : values.country,
      paidAt,
      issuedAt: paidAt ?? new Date(),
      gatewayUpdatedAt: paidAt ?? new Date(),
    })
    .returning();
  if (!row) throw new Error('no invoice');
  const [payment] = await db
    .insert(payments)
    .values({
      invoiceId: row.id,
      userId: row.userId,
      gateway: row.gateway,
      gatewayRef: `pi_${randomUUID()}`,
      status: status === 'paid' ? 'succeeded' : 'pending',
      amount: values.amount,
      currency: row.currency,
      createdAt: paidAt ?? new Date(),
    })
    .returning();
  if (!payment) throw new Error('no payment');
  return { invoice: row, payment };
}

/** A refund on an invoice's payment, given on `createdAt`. */
export async function addRefund(
  db: Database,
  paid: Awaited<ReturnType<typeof addInvoice>>,
  amount: number,
  createdAt: string,
) {
  const [row] = await db
    .insert(refunds)
    .values({
      paymentId: paid.payment.id,
      invoiceId: paid.invoice.id,
      gateway: paid.invoice.gateway,
      gatewayRef: `re_${randomUUID()}`,
      amount,
      currency: paid.invoice.currency,
      createdAt: at(createdAt),
    })
    .returning();
  return row;
}

/** Consecutive paid periods of one subscription: [start, end, amount] each. */
export async function addPeriods(
  db: Database,
  subscription: { id: number; userId: number; currency: string },
  periods: [start: string, end: string, amount: number][],
) {
  for (const [periodStart, periodEnd, amount] of periods) {
    await addInvoice(db, {
      userId: subscription.userId,
      subscriptionId: subscription.id,
      currency: subscription.currency,
      amount,
      periodStart,
      periodEnd,
    });
  }
}
