import { GATEWAYS } from '#shared/billing/billing-values.ts';
import type { AdminInvoice } from '#shared/contracts/admin/invoices.ts';
import type { AdminSubscription } from '#shared/contracts/admin/subscriptions.ts';
import type { ServiceId } from '#shared/subscription/actions.ts';
import type { InvoiceRow, ProductRow, SubscriptionRow, UserRow } from '../../db/schema/index.ts';
import { staffActions } from './staff-actions.ts';

const iso = (at: Date | null) => (at ? at.toISOString() : null);

type Customer = Pick<UserRow, 'id' | 'email' | 'name'> | null;

export function presentAdminInvoice(
  row: InvoiceRow,
  extra: {
    customer: Customer;
    description: string | null;
    couponCode: string | null;
  },
): AdminInvoice {
  return {
    invoice_id: row.id,
    number: row.number,
    status: row.status,
    gateway: row.gateway,
    service_id: serviceOfGateway(row.gateway),
    currency: row.currency,
    subtotal: row.subtotal,
    discount_total: row.discountTotal,
    total: row.total,
    amount_paid: row.amountPaid,
    amount_refunded: row.amountRefunded,
    country: row.country,
    customer: extra.customer?.id
      ? { id: extra.customer.id, email: extra.customer.email, name: extra.customer.name }
      : null,
    subscription_id: row.subscriptionId,
    description: extra.description ?? '',
    coupon_code: extra.couponCode,
    last_failure: row.lastFailure,
    issued_at: row.issuedAt.toISOString(),
    paid_at: iso(row.paidAt),
  };
}

export function serviceOfGateway(gateway: InvoiceRow['gateway']): ServiceId {
  return GATEWAYS[gateway];
}

export function presentAdminSubscription(
  row: SubscriptionRow,
  extra: {
    customer: Pick<UserRow, 'id' | 'email' | 'name'>;
    product: Pick<ProductRow, 'id' | 'plan' | 'name'>;
    latestPaid: { invoiceId: number; left: number } | undefined;
  },
): AdminSubscription {
  const refundable = extra.latestPaid?.left ?? 0;
  return {
    subscription_id: row.id,
    status: row.status,
    service_id: row.serviceId as ServiceId,
    gateway: row.gateway,
    onetime: row.onetime,
    cancel_at_period_end: row.cancelAtPeriodEnd,
    plan: { product_id: extra.product.id, family: extra.product.plan, name: extra.product.name },
    customer: { id: extra.customer.id, email: extra.customer.email, name: extra.customer.name },
    currency: row.currency,
    amount: row.amount,
    current_period_start: iso(row.currentPeriodStart),
    current_period_end: iso(row.currentPeriodEnd),
    canceled_at: iso(row.canceledAt),
    ended_at: iso(row.endedAt),
    created_at: row.createdAt.toISOString(),
    latest_paid_invoice_id: extra.latestPaid?.invoiceId ?? null,
    refundable,
    actions: staffActions(row, refundable),
  };
}
