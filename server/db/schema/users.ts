import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ROLES } from '#shared/roles.ts';
import { countries } from './countries.ts';

export const userRole = pgEnum('user_role', ROLES);

/** §3 User. Public field names are produced by the user presenter, not by this table. */
export const users = pgTable(
  'users',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text(),
    username: text().notNull(),
    /** Always stored lower-cased and trimmed, so the unique index is case-insensitive. */
    email: text().notNull(),
    /** A new address waiting for confirmation through the link sent to it (§4). */
    emailTmp: text(),
    /** Path of the avatar on the site origin. */
    photo: text(),
    /** Null for accounts made through social sign-in that never set a password. */
    passwordHash: text(),
    /** `activated` in §3: set when the e-mail address was verified. */
    emailVerifiedAt: timestamp({ withTimezone: true }),
    /** `delete_at` in §3: the account is deactivated and will be deleted at this time. */
    deleteAt: timestamp({ withTimezone: true }),
    /** Id of the default card at the payment gateway. */
    defaultSource: text(),
    /** TOTP secret, encrypted at rest; its presence means two-factor is enabled. */
    twoFactorSecret: text(),
    twoFactorConfirmedAt: timestamp({ withTimezone: true }),
    /** The last TOTP time step accepted: a code cannot be used twice (replay). */
    twoFactorLastStep: bigint({ mode: 'number' }),
    countryId: integer().references(() => countries.id, { onDelete: 'set null' }),
    billingAddress: jsonb().$type<Record<string, string>>(),
    subscriptionId: integer(),
    /** Monthly VPN traffic allowed, in GB; null is unlimited (§6 set traffic limit). */
    trafficLimitGb: integer(),
    role: userRole().notNull().default('USER'),
    locale: text().notNull().default('en'),
    blockedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    uniqueIndex('users_email_key').on(table.email),
    uniqueIndex('users_username_key').on(sql`lower(${table.username})`),
    index('users_role_idx').on(table.role),
    // New customers today and this month (admin dashboard) without reading every account.
    index('users_created_at_idx').on(table.createdAt),
    // The VPN's sweep: accounts blocked, deactivated or given a traffic limit lately.
    index('users_updated_at_idx').on(table.updatedAt),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
