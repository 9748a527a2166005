import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * §3 Family sharing group: one per owner, whose family plan's seats (products.family_seats)
 * its members fill. Members' VPN access is written to the entitlement ledger (`family:{id}`)
 * and follows the owner's subscription.
 */
export const familyGroups = pgTable(
  'family_groups',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    ownerId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [uniqueIndex('family_groups_owner_key').on(table.ownerId)],
);

/**
 * A seat of a group: an invite to an address (§4: an invitee until `acceptedAt`, then a
 * member). A removed member or a withdrawn invite is deleted (the audit log keeps the story);
 * a resend clears `declinedAt` and `expiredAt` and issues a new token.
 */
export const familyMembers = pgTable(
  'family_members',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    groupId: integer()
      .notNull()
      .references(() => familyGroups.id, { onDelete: 'cascade' }),
    /** Lower-cased and trimmed, as users.email. */
    email: text().notNull(),
    /** The account that answered the invite (null until someone signed in as the address). */
    userId: integer().references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the mailed invite token; the link works until `inviteExpiresAt`. */
    tokenHash: text(),
    invitedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    inviteExpiresAt: timestamp({ withTimezone: true }).notNull(),
    acceptedAt: timestamp({ withTimezone: true }),
    declinedAt: timestamp({ withTimezone: true }),
    expiredAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    uniqueIndex('family_members_group_email_key').on(table.groupId, table.email),
    uniqueIndex('family_members_token_key').on(table.tokenHash),
    // Someone is an accepted member of one group at a time.
    uniqueIndex('family_members_accepted_user_key')
      .on(table.userId)
      .where(sql`${table.acceptedAt} is not null`),
    index('family_members_user_idx').on(table.userId),
    index('family_members_email_idx').on(table.email),
  ],
);

export type FamilyGroupRow = typeof familyGroups.$inferSelect;
export type FamilyMemberRow = typeof familyMembers.$inferSelect;
