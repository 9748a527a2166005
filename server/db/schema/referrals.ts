import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { invoices } from './invoices.ts';
import { users } from './users.ts';

/**
 * Each customer's referral code: the `{id}` of their link `/{lang}/r/{id}` (§2). Random and
 * unguessable, so a link names nobody and cannot be walked; made on first use.
 */
export const referralCodes = pgTable(
  'referral_codes',
  {
    userId: integer()
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    code: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('referral_codes_code_key').on(table.code)],
);

/**
 * One referred customer joined through someone's link (§7 referral-program join). An account
 * is referred once. Both sides earn bonus days when the referred customer's first payment
 * succeeds: `rewardedAt` marks that it happened, so the days are granted once.
 */
export const referrals = pgTable(
  'referrals',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    referrerId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    referredId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    joinedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The paid invoice that earned the bonus days, and when they were granted. */
    rewardInvoiceId: integer().references(() => invoices.id, { onDelete: 'set null' }),
    rewardDays: integer(),
    rewardedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    uniqueIndex('referrals_referred_key').on(table.referredId),
    index('referrals_referrer_idx').on(table.referrerId, table.rewardedAt),
  ],
);

export type ReferralRow = typeof referrals.$inferSelect;
