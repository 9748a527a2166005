import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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
    /**
     * 'outbox' when only stored (no SMTP_URL), 'retrying' while a durable job tries again,
     * 'sent' once SMTP accepted it, 'failed' when every attempt failed.
     */
    status: text().notNull(),
    error: text(),
    /** The Message-ID every attempt sends, so a receiver can drop a repeated delivery. */
    messageId: text(),
    /**
     * The rendered message sealed under the app key while it waits for another attempt
     * (its links are live secrets: never stored in the clear); emptied once sent or failed.
     */
    sealedMessage: text(),
    attempts: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (table) => [index('mail_outbox_created_at_idx').on(table.createdAt)],
);

export type MailOutboxRow = typeof mailOutbox.$inferSelect;
