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
import { gatewayName, paymentMethodType, subscriptionStatus } from './billing-enums.ts';
import { coupons } from './coupons.ts';
import { products } from './products.ts';
import { users } from './users.ts';

/**
 * §3 Subscription as we know it from its gateway, which holds the truth: every change the
 * gateway reports (a signed webhook) is applied here, a newer report over an older one
 * (`gatewayUpdatedAt`), so events that arrive out of order converge.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    gateway: gatewayName().notNull(),
    /** The gateway's id of this subscription. */
    gatewayRef: text().notNull(),
    serviceId: smallint().notNull(),
    /** The plan product (§3 plan.plan_id is its `plan`). */
    productId: integer()
      .notNull()
      .references(() => products.id),
    status: subscriptionStatus().notNull(),
    onetime: boolean().notNull().default(false),
    paymentMethodType: paymentMethodType().notNull(),
    /** The card (card_sources.gateway_ref) it is charged to, for card gateways. */
    paymentMethodRef: text(),
    currency: text().notNull(),
    /** What each period costs now, before any discount, in minor units. */
    amount: integer().notNull(),
    currentPeriodStart: timestamp({ withTimezone: true }),
    currentPeriodEnd: timestamp({ withTimezone: true }),
    cancelAtPeriodEnd: boolean().notNull().default(false),
    canceledAt: timestamp({ withTimezone: true }),
    endedAt: timestamp({ withTimezone: true }),
    pausedAt: timestamp({ withTimezone: true }),
    /** On hold after a failed renewal: access stays until then (the grace period). */
    graceUntil: timestamp({ withTimezone: true }),
    couponId: integer().references(() => coupons.id, { onDelete: 'set null' }),
    /** Invoices the coupon still discounts; null while it lasts for good. */
    discountPeriodsLeft: integer(),
    /** The period end the renewal reminder was mailed for: one reminder a period. */
    reminderSentFor: timestamp({ withTimezone: true }),
    /** When the gateway's state we hold was true: an older report changes nothing. */
    gatewayUpdatedAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    uniqueIndex('subscriptions_gateway_ref_key').on(table.gateway, table.gatewayRef),
    index('subscriptions_user_idx').on(table.userId, table.createdAt),
    index('subscriptions_status_idx').on(table.status, table.currentPeriodEnd),
    // The VPN's sweep: plans changed lately (a downgrade's device limit).
    index('subscriptions_updated_idx').on(table.updatedAt),
  ],
);

/** §3 subscription_items: the plan and any addons, each at its price. */
export const subscriptionItems = pgTable(
  'subscription_items',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    subscriptionId: integer()
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    productId: integer()
      .notNull()
      .references(() => products.id),
    quantity: integer().notNull().default(1),
    amount: integer().notNull(),
  },
  (table) => [uniqueIndex('subscription_items_key').on(table.subscriptionId, table.productId)],
);

export type SubscriptionRow = typeof subscriptions.$inferSelect;
