import {
  bigint,
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
} from 'drizzle-orm/pg-core';
import { gatewayName } from './billing-enums.ts';

// Staff's statistics read these rollups, never the raw invoices: a three-year range over a
// million invoices must answer in well under 200 ms. They are written only by the database's
// own triggers (migration 0013_statistics), in the same transaction as the invoice, refund or
// subscription that changes them, so they cannot drift from the books whoever writes them:
// checkout, a gateway's webhook, a sweep, or the demo seed's bulk inserts. Days and months
// are UTC. Amounts are minor units of `currency`; nothing here adds two currencies together.

const money = () => bigint({ mode: 'number' }).notNull().default(0);
const tally = () => integer().notNull().default(0);

/** Takings per UTC day, currency and gateway: paid invoices on the day paid, refunds on theirs. */
export const statisticsDailyTakings = pgTable(
  'statistics_daily_takings',
  {
    day: date({ mode: 'string' }).notNull(),
    currency: text().notNull(),
    gateway: gatewayName().notNull(),
    /** amount_paid of the invoices paid that day. */
    gross: money(),
    /** Refunds given that day. */
    refunds: money(),
    /** Invoices paid that day. */
    payments: tally(),
  },
  (table) => [primaryKey({ columns: [table.day, table.currency, table.gateway] })],
);

/** The same per buyer's country ('' where the invoice has none: a key cannot be null). */
export const statisticsDailyCountryTakings = pgTable(
  'statistics_daily_country_takings',
  {
    day: date({ mode: 'string' }).notNull(),
    currency: text().notNull(),
    country: text().notNull(),
    gross: money(),
    refunds: money(),
    payments: tally(),
  },
  (table) => [primaryKey({ columns: [table.day, table.currency, table.country] })],
);

/**
 * Each recurring subscription's monthly recurring revenue at the end of each UTC month it
 * paid for, and its share of that month's movement (a churn row closes a run with mrr 0).
 * Derived from its paid invoices' periods, normalized to a month; rebuilt for a subscription
 * whenever one of its invoices changes.
 */
export const statisticsMrrSubscriptionMonths = pgTable(
  'statistics_mrr_subscription_months',
  {
    subscriptionId: integer().notNull(),
    currency: text().notNull(),
    /** The month's first day. */
    month: date({ mode: 'string' }).notNull(),
    mrr: money(),
    new: money(),
    expansion: money(),
    contraction: money(),
    churn: money(),
    reactivation: money(),
  },
  (table) => [
    primaryKey({ columns: [table.subscriptionId, table.currency, table.month] }),
    index('statistics_mrr_subscription_months_month_idx').on(table.month),
  ],
);

/** The sum of statisticsMrrSubscriptionMonths per month and currency, with counts. */
export const statisticsMrrMonths = pgTable(
  'statistics_mrr_months',
  {
    month: date({ mode: 'string' }).notNull(),
    currency: text().notNull(),
    mrr: money(),
    new: money(),
    expansion: money(),
    contraction: money(),
    churn: money(),
    reactivation: money(),
    /** Subscriptions paying at the month's end. */
    paying: tally(),
    /** Subscriptions that stopped paying during the month. */
    churned: tally(),
  },
  (table) => [primaryKey({ columns: [table.month, table.currency] })],
);

/** Every ordered subscription (not bonus ones), by the month it started, and whether it paid. */
export const statisticsSubscriptionStarts = pgTable('statistics_subscription_starts', {
  subscriptionId: integer().primaryKey(),
  month: date({ mode: 'string' }).notNull(),
  converted: boolean().notNull(),
});

/** The sum of statisticsSubscriptionStarts per month. */
export const statisticsConversionMonths = pgTable('statistics_conversion_months', {
  month: date({ mode: 'string' }).primaryKey(),
  started: tally(),
  converted: tally(),
});
