import { integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { gatewayName } from './billing-enums.ts';
import { products } from './products.ts';

/**
 * A product as each gateway knows it: Stripe's price, PayPal's plan, the App Store's product
 * id. Per gateway, since two can sell one service (the sandbox and Stripe both sell cards).
 */
export const gatewayPrices = pgTable(
  'gateway_prices',
  {
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    gateway: gatewayName().notNull(),
    priceRef: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.productId, table.gateway] }),
    uniqueIndex('gateway_prices_ref_key').on(table.gateway, table.priceRef),
  ],
);
