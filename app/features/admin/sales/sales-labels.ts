import { INVOICE_STATUSES } from '#shared/billing/billing-values.ts';
import { SERVICE_ID_LIST, SUBSCRIPTION_STATUSES } from '#shared/subscription/actions.ts';
import type { ListFilter } from '../kit/list-filters.tsx';

// The words of the sales lists' filters and cells: i18n keys under staff_sales.

export const subscriptionStatusKey = (status: string) => `staff_sales.statuses.${status}`;
export const invoiceStatusKey = (status: string) => `staff_sales.invoice_statuses.${status}`;
export const serviceKey = (serviceId: number) => `staff_sales.services.s${serviceId}`;

export const SERVICE_FILTER: ListFilter = {
  name: 'service_id',
  label: 'staff_sales.filters.service',
  options: SERVICE_ID_LIST.map((id) => ({ value: String(id), label: serviceKey(id) })),
};

export const SUBSCRIPTION_STATUS_FILTER: ListFilter = {
  name: 'status',
  label: 'staff_sales.filters.status',
  options: SUBSCRIPTION_STATUSES.map((status) => ({
    value: status,
    label: subscriptionStatusKey(status),
  })),
};

export const INVOICE_STATUS_FILTER: ListFilter = {
  name: 'status',
  label: 'staff_sales.filters.status',
  options: INVOICE_STATUSES.map((status) => ({ value: status, label: invoiceStatusKey(status) })),
};

export const DAY_FILTERS: readonly ListFilter[] = [
  { name: 'from', label: 'staff_sales.filters.from', kind: 'date' },
  { name: 'to', label: 'staff_sales.filters.to', kind: 'date' },
];

/** Gateways staff refund through here (the App Store refunds by itself, bonus days cost nothing). */
export const REFUNDABLE_GATEWAYS: ReadonlySet<string> = new Set([
  'sandbox',
  'stripe',
  'paypal',
  'cryptomus',
]);
