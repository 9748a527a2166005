import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The sandbox gateway's own books: it stands in for a card processor in test mode (the
 * embedded default), so it keeps its customers, cards, subscriptions, invoices, payments and
 * events apart from ours, as a real processor would, and tells us of changes only through
 * signed webhooks. One document per object: it is a stand-in, not a model to query.
 */
export const sandboxObjects = pgTable(
  'sandbox_objects',
  {
    /** `cus_…`, `card_…`, `sub_…`, `in_…`, `pay_…`, `re_…`, `evt_…`. */
    id: text().primaryKey(),
    kind: text().notNull(),
    /** The customer it belongs to, for listing a customer's objects. */
    customerId: text(),
    data: jsonb().$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('sandbox_objects_kind_idx').on(table.kind, table.customerId)],
);
