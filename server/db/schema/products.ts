import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { billingInterval } from './billing-enums.ts';

/**
 * §3 Product: what is sold, per payment service (§9) and currency. A plan renews every
 * `intervalCount` `interval`s (or is one-time); an addon (`additional`) is sold beside a
 * plan, and an includable one can come bundled with plans (product_includes).
 */
export const products = pgTable(
  'products',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    serviceId: smallint().notNull(),
    /** The plan family this product sells (`standard`, `family` …): §3 plan.plan_id. */
    plan: text().notNull(),
    name: text().notNull(),
    description: text().notNull().default(''),
    /** Minor units of `currency`. */
    amount: integer().notNull(),
    /** The struck-through former price, when there is one. */
    amountOld: integer(),
    currency: text().notNull(),
    /** Null for a one-time product. */
    interval: billingInterval(),
    intervalCount: integer().notNull().default(1),
    onetime: boolean().notNull().default(false),
    visible: boolean().notNull().default(true),
    disabled: boolean().notNull().default(false),
    sort: integer().notNull().default(0),
    /** Show the price per month (a yearly plan as its monthly rate). */
    asMonthlyRate: boolean().notNull().default(false),
    /** Show the saving against amountOld as a badge. */
    discountedBadge: boolean().notNull().default(false),
    /** The one plan marked "most selected" on the order page. */
    asMostSelected: boolean().notNull().default(false),
    /** An addon, sold beside a plan. */
    additional: boolean().notNull().default(false),
    /** An addon that plans may include in their price. */
    includable: boolean().notNull().default(false),
    /** The addon the order page offers with this plan. */
    additionalProductId: integer().references((): AnyPgColumn => products.id, {
      onDelete: 'set null',
    }),
    /** Family sharing seats the plan brings (0: none). */
    familySeats: integer().notNull().default(0),
    /** WireGuard devices the plan allows its holder (each family member has their own). */
    deviceLimit: integer().notNull().default(10),
    /** Deleted by staff: kept for the subscriptions and invoices that name it, sold no more. */
    deletedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [index('products_catalog_idx').on(table.serviceId, table.currency, table.sort)],
);

/** The includable addons a plan comes with (§3 includable_product_id). */
export const productIncludes = pgTable(
  'product_includes',
  {
    planId: integer()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    addonId: integer()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.planId, table.addonId] })],
);

export type ProductRow = typeof products.$inferSelect;
