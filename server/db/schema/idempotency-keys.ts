import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * A money-moving request's idempotency key (an order, a plan change, a payment) and, once it
 * is done, its answer: the same key again (a double click, a retry after a lost answer)
 * gets that answer instead of a second charge.
 */
export const idempotencyKeys = pgTable('idempotency_keys', {
  /** `checkout:<user>:<key>`: the caller's key within what it is for and who sent it. */
  key: text().primaryKey(),
  userId: integer()
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  /**
   * SHA-256 of the request's body as first sent: the same key with another body is refused
   * (a client bug, or a key reused by mistake), never answered with the first result.
   */
  requestHash: text(),
  /**
   * While the work runs, a lease its process renews: a row still working whose lease has
   * lapsed belongs to a process that died, and a retry takes it over.
   */
  leaseUntil: timestamp({ withTimezone: true }),
  /** Null while the first request is still working. */
  response: jsonb().$type<unknown>(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
