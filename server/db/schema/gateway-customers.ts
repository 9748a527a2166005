import { integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { gatewayName } from './billing-enums.ts';
import { users } from './users.ts';

/** Who our user is at each gateway: made once, on their first order there. */
export const gatewayCustomers = pgTable(
  'gateway_customers',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    gateway: gatewayName().notNull(),
    customerRef: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.gateway] }),
    uniqueIndex('gateway_customers_ref_key').on(table.gateway, table.customerRef),
  ],
);
