import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * §3 Notification list: an e-mail list people subscribe to (product news, offers, security
 * notices). `visible` lists are offered to customers; hidden ones reach staff only (and those
 * already subscribed). `push` marks lists meant for the apps' push notifications too: stored
 * for staff, the web product itself sends e-mail only.
 */
export const notificationLists = pgTable(
  'notification_lists',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    /** `listUuid`: how the browser names a list. */
    uuid: uuid().notNull().defaultRandom(),
    name: text().notNull(),
    description: text().notNull().default(''),
    visible: boolean().notNull().default(true),
    push: boolean().notNull().default(false),
    sort: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [uniqueIndex('notification_lists_uuid_key').on(table.uuid)],
);

/**
 * Someone's subscription to a list. Its `uuid` (`subscriberUuid`) is also the secret of the
 * one-click unsubscribe link each mail to the list carries (RFC 8058), so it is random.
 */
export const notificationSubscriptions = pgTable(
  'notification_subscriptions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    uuid: uuid().notNull().defaultRandom(),
    listId: integer()
      .notNull()
      .references(() => notificationLists.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('notification_subscriptions_uuid_key').on(table.uuid),
    uniqueIndex('notification_subscriptions_list_user_key').on(table.listId, table.userId),
    index('notification_subscriptions_user_idx').on(table.userId),
  ],
);

/**
 * A message staff sent to a list: sent by a durable job in batches, in subscription id order,
 * so `lastSubscriptionId` lets it resume after a restart where it stopped.
 */
export const notificationSends = pgTable(
  'notification_sends',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    listId: integer()
      .notNull()
      .references(() => notificationLists.id, { onDelete: 'cascade' }),
    subject: text().notNull(),
    /** Markdown, rendered into the mail's HTML and text. */
    body: text().notNull(),
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    /** queued, sending, done, canceled. */
    status: text().notNull().default('queued'),
    total: integer().notNull().default(0),
    sent: integer().notNull().default(0),
    failed: integer().notNull().default(0),
    lastSubscriptionId: bigint({ mode: 'number' }).notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp({ withTimezone: true }),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (table) => [index('notification_sends_list_idx').on(table.listId, table.createdAt)],
);

export type NotificationListRow = typeof notificationLists.$inferSelect;
export type NotificationSubscriptionRow = typeof notificationSubscriptions.$inferSelect;
export type NotificationSendRow = typeof notificationSends.$inferSelect;
