import {
  boolean,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { gatewayName } from './billing-enums.ts';
import { users } from './users.ts';

/**
 * §3 Card source: a card the gateway keeps for the user; we hold only what the screens show
 * (never the number). The expiry year has its century (2031, not 31: §3, §5 expiry rule).
 */
export const cardSources = pgTable(
  'card_sources',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    gateway: gatewayName().notNull(),
    /** The gateway's id of the card: §3 card_id. */
    gatewayRef: text().notNull(),
    brand: text().notNull(),
    last4: text().notNull(),
    expMonth: smallint().notNull(),
    expYear: smallint().notNull(),
    /** The card renewals are charged to (also users.default_source, §3). */
    isDefault: boolean().notNull().default(false),
    /** When the gateway's state we hold was true: an older report changes nothing. */
    gatewayUpdatedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('card_sources_gateway_ref_key').on(table.gateway, table.gatewayRef),
    index('card_sources_user_idx').on(table.userId),
  ],
);

export type CardSourceRow = typeof cardSources.$inferSelect;
