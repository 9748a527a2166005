import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { userRole, users } from './users.ts';

/**
 * A signed-in browser: §3 Device. The cookie holds a random token; only its SHA-256 is
 * stored, so a copy of this table signs nobody in.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull(),
    /**
     * The role the user had when this session signed in. A session whose user's role has
     * changed since is dead (sessions.ts): a privilege change needs a fresh sign-in,
     * whichever code path made it.
     */
    role: userRole().notNull().default('USER'),
    ip: text(),
    userAgent: text(),
    /** §3 last_login_at: when this session signed in. */
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Refreshed at most once a minute; the idle expiry counts from here. */
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Absolute expiry: a session ends then, however active. */
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('sessions_token_hash_key').on(table.tokenHash),
    index('sessions_user_idx').on(table.userId),
  ],
);

export type SessionRow = typeof sessions.$inferSelect;
