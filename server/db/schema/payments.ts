import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { gatewayName, paymentStatus } from './billing-enums.ts';
import { invoices } from './invoices.ts';
import { users } from './users.ts';

/** One attempt to collect an invoice, as its gateway reports it. */
export const payments = pgTable(
  'payments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    invoiceId: integer()
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    gateway: gatewayName().notNull(),
    gatewayRef: text().notNull(),
    status: paymentStatus().notNull(),
    amount: integer().notNull(),
    currency: text().notNull(),
    /** The card charged, by the gateway's id. */
    paymentMethodRef: text(),
    failureCode: text(),
    failureMessage: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('payments_gateway_ref_key').on(table.gateway, table.gatewayRef),
    index('payments_invoice_idx').on(table.invoiceId),
  ],
);

/** Money given back on a payment, in full or in part. */
export const refunds = pgTable(
  'refunds',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    paymentId: integer()
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    invoiceId: integer()
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    gateway: gatewayName().notNull(),
    gatewayRef: text().notNull(),
    amount: integer().notNull(),
    currency: text().notNull(),
    reason: text(),
    /** The staff member who gave it; null when the gateway reported one we did not ask for. */
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('refunds_gateway_ref_key').on(table.gateway, table.gatewayRef),
    index('refunds_invoice_idx').on(table.invoiceId),
  ],
);
