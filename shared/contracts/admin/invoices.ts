import { z } from 'zod';
import { GATEWAY_NAMES, INVOICE_STATUSES } from '../../billing/billing-values.ts';
import { LANGS } from '../../locales.ts';
import { SERVICE_ID_LIST } from '../../subscription/actions.ts';
import { INT4_MAX, recordId, recordIdNumber } from '../../validation/record-id.ts';
import { endpoint } from '../endpoint.ts';
import { booleanFilter, listResponse, pagingQuery, searchFilter, sortQuery } from '../list.ts';
import {
  adminSubscription,
  serviceIdFilter,
  walletAddress,
  withDayRange,
} from './subscriptions.ts';

// §7 dashboard /invoices: every customer's invoices as staff see them (admin only, while the
// billing flag is on). Amounts are integer minor units of the invoice's currency.

const money = z.number().int();

/** An invoice in staff's lists (the invoices screen, the dashboard's latest). */
export const adminInvoice = z
  .object({
    invoice_id: z.number().int(),
    /** `INV-2026-000042` once finalized; null for a draft. */
    number: z.string().nullable(),
    status: z.enum(INVOICE_STATUSES),
    gateway: z.enum(GATEWAY_NAMES),
    service_id: z.literal(SERVICE_ID_LIST),
    currency: z.string(),
    subtotal: money,
    discount_total: money,
    total: money,
    amount_paid: money,
    amount_refunded: money,
    /** The buyer's country (ISO 3166-1 alpha-2) when it was made. */
    country: z.string().nullable(),
    customer: z
      .object({ id: z.number().int(), email: z.string(), name: z.string().nullable() })
      .nullable(),
    subscription_id: z.number().int().nullable(),
    /** What was bought: the plan's name and period, as on the invoice. */
    description: z.string(),
    coupon_code: z.string().nullable(),
    last_failure: z.string().nullable(),
    issued_at: z.iso.datetime({ offset: true }),
    paid_at: z.iso.datetime({ offset: true }).nullable(),
  })
  .meta({ id: 'AdminInvoice' });
export type AdminInvoice = z.infer<typeof adminInvoice>;

const invalid = { error: 'input_errors.field_is_invalid' };
const day = z.iso.date(invalid);

export const INVOICE_SORTS = ['issued_at', 'paid_at', 'total', 'number', 'id'] as const;

/** What narrows invoices: the list's filters, and an export's. Days are UTC, both ends in. */
const invoiceFilters = z.object({
  status: z.enum(INVOICE_STATUSES, invalid).optional(),
  gateway: z.enum(GATEWAY_NAMES, invalid).optional(),
  service_id: serviceIdFilter.optional(),
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, invalid)
    .optional(),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, invalid)
    .optional(),
  user_id: recordId.optional(),
  /** Something was given back (in part or whole), or nothing was. */
  refunded: booleanFilter,
  /** The customer's e-mail or name, or the invoice's number. */
  search: searchFilter,
  from: day.optional(),
  to: day.optional(),
});

export const invoicesQuery = withDayRange(
  pagingQuery.merge(sortQuery(INVOICE_SORTS, 'issued_at')).extend(invoiceFilters.shape),
);
export type InvoicesQuery = z.infer<typeof invoicesQuery>;

/**
 * An export covers a range of days (both required, at most about a year); the same filters
 * apply. The CSV holds every invoice; the PDF report lists at most EXPORT_PDF_ROWS of them
 * and says so, with its totals per currency still over all of them.
 */
export const EXPORT_MAX_DAYS = 366;
export const EXPORT_PDF_ROWS = 2000;
export const invoiceExportQuery = withDayRange(
  invoiceFilters.extend({
    from: day,
    to: day,
    lang: z.enum(LANGS, invalid).default('en'),
  }),
).superRefine((value, context) => {
  const days = (Date.parse(value.to) - Date.parse(value.from)) / 86_400_000;
  if (days > EXPORT_MAX_DAYS) {
    context.addIssue({
      code: 'custom',
      path: ['to'],
      message: 'staff_sales.errors.range_too_long',
    });
  }
});
export type InvoiceExportQuery = z.infer<typeof invoiceExportQuery>;

/**
 * A refund of one invoice: `amount` in minor units (absent: all that is left of it);
 * `end_subscription` ends its subscription now too (§4 refunded once all is given back);
 * `address` is the customer's wallet, which crypto refunds need.
 */
export const invoiceRefundRequest = z.object({
  invoice_id: recordIdNumber,
  amount: z.number(invalid).int(invalid).positive(invalid).max(INT4_MAX, invalid).optional(),
  reason: z.string(invalid).trim().max(500, { error: 'input_errors.field_is_too_long' }).optional(),
  end_subscription: z.boolean(invalid).default(false),
  address: walletAddress.optional(),
});
export type InvoiceRefundRequest = z.infer<typeof invoiceRefundRequest>;

export const invoiceRefundResponse = z.object({
  invoice: adminInvoice,
  /** Given back by this call, in minor units. */
  refunded: z.number().int(),
  subscription: adminSubscription.nullable(),
});

const admin = {
  base: 'dashboard',
  access: { permission: 'commerce' },
  feature: 'billing',
  tag: 'invoices',
} as const;

export const invoiceEndpoints = {
  /** §7 GET /invoices/latest: the newest invoices of every customer (the dashboard's list). */
  latest: endpoint({
    ...admin,
    method: 'GET',
    path: '/invoices/latest',
    summary: 'The newest invoices of all customers',
    query: z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) }),
    response: z.object({ items: z.array(adminInvoice) }),
  }),
  /** §7 GET /invoices: every invoice, filtered, sorted, a page at a time. */
  list: endpoint({
    ...admin,
    method: 'GET',
    path: '/invoices',
    summary: 'Invoices of all customers: filter, sort, a page at a time',
    query: invoicesQuery,
    response: listResponse(adminInvoice),
  }),
  /** §7 POST /invoices/refund: in full or in part, at the invoice's gateway, once. */
  refund: endpoint({
    ...admin,
    method: 'POST',
    path: '/invoices/refund',
    summary: 'Give back all or part of a paid invoice at its gateway',
    body: invoiceRefundRequest,
    response: invoiceRefundResponse,
  }),
  pdf: endpoint({
    ...admin,
    method: 'GET',
    path: '/invoices/:invoice_id/pdf',
    summary: 'One invoice as its customer gets it, as a PDF',
    params: z.object({ invoice_id: recordId }),
    produces: 'file',
  }),
  /** §2 /admin/dashboard/invoices/export-pdf: a range of days as a report. */
  exportPdf: endpoint({
    ...admin,
    method: 'GET',
    path: '/invoices/export/pdf',
    summary: 'Invoices of a range of days as a PDF report with totals per currency',
    query: invoiceExportQuery,
    produces: 'file',
  }),
  exportCsv: endpoint({
    ...admin,
    method: 'GET',
    path: '/invoices/export/csv',
    summary: 'Invoices of a range of days as CSV, one row each',
    query: invoiceExportQuery,
    produces: 'text',
  }),
};
