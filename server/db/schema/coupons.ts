import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { couponDuration } from './billing-enums.ts';
import { products } from './products.ts';
import { users } from './users.ts';

/**
 * A discount: a percentage or an amount of one currency off, for the first invoice, some
 * months, or for good; until it expires or is redeemed `maxRedemptions` times; on the
 * products listed (all when none are). A pre-applied coupon comes in by a link that sets
 * the coupon cookie (§4 reaction 1 clears it on sign-out).
 */
export const coupons = pgTable(
  'coupons',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    /** What a customer types; compared case-insensitively. */
    code: text().notNull(),
    name: text().notNull(),
    percentOff: integer(),
    amountOff: integer(),
    /** The currency of amountOff. */
    currency: text(),
    duration: couponDuration().notNull(),
    /** For `repeating`: how many monthly invoices it discounts. */
    durationInMonths: integer(),
    expiresAt: timestamp({ withTimezone: true }),
    maxRedemptions: integer(),
    timesRedeemed: integer().notNull().default(0),
    /** Offered by link: opening it sets the coupon cookie, so the order page shows it applied. */
    preapplied: boolean().notNull().default(false),
    /** Deleted by staff: redeemable no more, kept for the invoices and statistics that name it. */
    deletedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('coupons_code_key').on(sql`lower(${table.code})`),
    check(
      'coupons_one_discount',
      sql`(${table.percentOff} is null) <> (${table.amountOff} is null)`,
    ),
    check(
      'coupons_percent_range',
      sql`${table.percentOff} is null or ${table.percentOff} between 1 and 100`,
    ),
  ],
);

/** The products a coupon applies to; none listed means every product. */
export const couponProducts = pgTable(
  'coupon_products',
  {
    couponId: integer()
      .notNull()
      .references(() => coupons.id, { onDelete: 'cascade' }),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.couponId, table.productId] })],
);

/** Who used a coupon, when, on what. */
export const couponRedemptions = pgTable(
  'coupon_redemptions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    couponId: integer()
      .notNull()
      .references(() => coupons.id, { onDelete: 'cascade' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    subscriptionId: integer(),
    redeemedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('coupon_redemptions_coupon_idx').on(table.couponId, table.redeemedAt)],
);

/**
 * A use of a coupon taken by an order that has not bought yet (a charge under way, a hosted
 * payment page open): counted in `timesRedeemed`, so two orders cannot both have a capped
 * coupon's last use, and given back if nothing is bought (billing/coupon-uses.ts).
 */
export const couponHolds = pgTable(
  'coupon_holds',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    couponId: integer()
      .notNull()
      .references(() => coupons.id, { onDelete: 'cascade' }),
    /** Null once the account is deleted: the sweep gives the use back in time. */
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [
    index('coupon_holds_user_idx').on(table.userId, table.couponId),
    index('coupon_holds_created_idx').on(table.createdAt),
  ],
);

export type CouponRow = typeof coupons.$inferSelect;
