import { integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** A social sign-in identity (Google, Apple) linked to a user (§1, §7 OAuth). */
export const oauthAccounts = pgTable(
  'oauth_accounts',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text().notNull(),
    /** The provider's stable id of the person (`sub`). */
    subject: text().notNull(),
    email: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('oauth_accounts_provider_subject_key').on(table.provider, table.subject)],
);
