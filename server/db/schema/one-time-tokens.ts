import { index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const TOKEN_TYPES = [
  'email_verify',
  'password_reset',
  'password_set',
  'email_change',
  'oauth_login',
  'two_factor_login',
] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

export const tokenType = pgEnum('token_type', TOKEN_TYPES);

/**
 * One mechanism for every e-mailed or one-time secret (DESIGN): keyed by (type, user),
 * stored as a SHA-256 hash, expiring and single use. Issuing a new one replaces the old.
 */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    type: tokenType().notNull(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address the link was sent to: a verification is for that address only. */
    email: text().notNull(),
    tokenHash: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('one_time_tokens_type_user_key').on(table.type, table.userId),
    uniqueIndex('one_time_tokens_hash_key').on(table.tokenHash),
    index('one_time_tokens_expires_idx').on(table.expiresAt),
  ],
);

export type OneTimeTokenRow = typeof oneTimeTokens.$inferSelect;
