import { z } from 'zod';
import { GATEWAY_NAMES, INVOICE_STATUSES } from '../../billing/billing-values.ts';
import { SERVICE_ID_LIST } from '../../subscription/actions.ts';
import { endpoint } from '../endpoint.ts';

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
};
