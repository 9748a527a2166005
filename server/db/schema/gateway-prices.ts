import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { gatewayName } from './billing-enums.ts';
import { products } from './products.ts';

/**
 * A product as each gateway knows it: Stripe's price, PayPal's plan, the App Store's product
 * id. Per gateway, since two can sell one service (the sandbox and Stripe both sell cards).
 * A new price (staff changed the amount) is added, never written over: subscriptions made on
 * the old one still name it, and must still find their product. The newest is sold.
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
    primaryKey({ columns: [table.gateway, table.priceRef] }),
    index('gateway_prices_product_idx').on(table.productId, table.gateway, table.createdAt),
  ],
);
