import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Every message the product sends, kept for staff and for the embedded default: without
 * SMTP_URL this table (and the log) is where mail goes, so `npm start` works offline.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    template: text().notNull(),
    toAddress: text().notNull(),
    subject: text().notNull(),
    html: text().notNull(),
    text: text().notNull(),
    /** 'outbox' when only stored, 'sent' once SMTP accepted it, 'failed' otherwise. */
    status: text().notNull(),
    error: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (table) => [index('mail_outbox_created_at_idx').on(table.createdAt)],
);

export type MailOutboxRow = typeof mailOutbox.$inferSelect;
