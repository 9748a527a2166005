import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const DATA_EXPORT_STATES = ['pending', 'ready', 'failed', 'downloaded', 'expired'] as const;
export type DataExportState = (typeof DATA_EXPORT_STATES)[number];

/**
 * A customer's request for a copy of their data: a durable job builds the ZIP into storage
 * and mails a link whose token (kept as SHA-256) works once, for 24 hours.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    state: text().$type<DataExportState>().notNull().default('pending'),
    /** The ZIP's key in file storage, once built; removed when downloaded or expired. */
    fileKey: text(),
    sizeBytes: bigint({ mode: 'number' }),
    tokenHash: text(),
    requestedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    readyAt: timestamp({ withTimezone: true }),
    expiresAt: timestamp({ withTimezone: true }),
    downloadedAt: timestamp({ withTimezone: true }),
    /** Why building it failed (for staff's logs; the customer sees a translated message). */
    error: text(),
  },
  (table) => [
    index('data_exports_user_idx').on(table.userId, table.requestedAt),
    uniqueIndex('data_exports_token_key').on(table.tokenHash),
    index('data_exports_expires_idx').on(table.expiresAt),
  ],
);

export type DataExportRow = typeof dataExports.$inferSelect;
