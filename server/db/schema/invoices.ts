import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { gatewayName, invoiceStatus } from './billing-enums.ts';
import { coupons } from './coupons.ts';
import { products } from './products.ts';
import { subscriptions } from './subscriptions.ts';
import { users } from './users.ts';

/** Who was billed and from where, as it stood when the invoice was made. */
export interface InvoiceParty {
  name: string;
  email: string;
  lines: string[];
}

/**
 * §3 Invoice. Numbered without gaps when it is finalized (invoice_counters), in the language
 * its PDF is written in; amounts in minor units of `currency`. Refunds are amounts, a paid
 * invoice stays paid.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    /** `INV-2026-000042`: given when the invoice is finalized, never reused. */
    number: text(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    subscriptionId: integer().references(() => subscriptions.id, { onDelete: 'set null' }),
    gateway: gatewayName().notNull(),
    gatewayRef: text().notNull(),
    status: invoiceStatus().notNull(),
    currency: text().notNull(),
    subtotal: integer().notNull(),
    discountTotal: integer().notNull().default(0),
    taxTotal: integer().notNull().default(0),
    total: integer().notNull(),
    amountPaid: integer().notNull().default(0),
    amountRefunded: integer().notNull().default(0),
    couponId: integer().references(() => coupons.id, { onDelete: 'set null' }),
    periodStart: timestamp({ withTimezone: true }),
    periodEnd: timestamp({ withTimezone: true }),
    lang: text().notNull(),
    buyer: jsonb().$type<InvoiceParty>().notNull(),
    /** The buyer's country (ISO 3166-1 alpha-2) when the invoice was made: revenue by country. */
    country: text(),
    /** Why the last payment attempt failed, in the gateway's words. */
    lastFailure: text(),
    attemptCount: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }),
    issuedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp({ withTimezone: true }),
    gatewayUpdatedAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('invoices_gateway_ref_key').on(table.gateway, table.gatewayRef),
    uniqueIndex('invoices_number_key').on(table.number),
    index('invoices_user_idx').on(table.userId, table.issuedAt),
    index('invoices_subscription_idx').on(table.subscriptionId, table.issuedAt),
    index('invoices_status_idx').on(table.status, table.issuedAt),
    // Statistics: the paid periods running now (this month's MRR, server/modules/statistics);
    // migration 0013 makes it covering (INCLUDE), which drizzle-kit cannot declare.
    index('invoices_paid_period_end_idx')
      .on(table.periodEnd)
      .where(sql`${table.status} = 'paid' and ${table.subscriptionId} is not null`),
  ],
);

export const invoiceLines = pgTable(
  'invoice_lines',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    invoiceId: integer()
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    productId: integer().references(() => products.id, { onDelete: 'set null' }),
    description: text().notNull(),
    quantity: integer().notNull().default(1),
    unitAmount: integer().notNull(),
    amount: integer().notNull(),
    periodStart: timestamp({ withTimezone: true }),
    periodEnd: timestamp({ withTimezone: true }),
    /** A credit or charge for the unused or added part of a period (a plan change). */
    proration: boolean().notNull().default(false),
  },
  (table) => [index('invoice_lines_invoice_idx').on(table.invoiceId)],
);

/** The next number of each year's series: taken under a row lock, so numbers have no gaps. */
export const invoiceCounters = pgTable('invoice_counters', {
  year: integer().primaryKey(),
  next: integer().notNull(),
});

export type InvoiceRow = typeof invoices.$inferSelect;
