import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { entitlementSource } from './billing-enums.ts';
import { users } from './users.ts';

/**
 * The entitlement ledger: who may use the VPN, from when until when, and why (own
 * subscription, bonus days, a family plan's seat, a staff member's grant). The one place
 * that answers "may this person connect"; billing, family sharing, referral and staff write
 * it, VPN provisioning reads it. A row is ended or revoked, never deleted, so the history
 * of someone's access stays readable.
 */
export const entitlements = pgTable(
  'entitlements',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: entitlementSource().notNull(),
    /** What it comes from: `subscription:12`, `family:4`, `referral:9`, `staff:1`. */
    sourceRef: text().notNull(),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    /** Null: for as long as its source lasts (a family seat while the owner pays). */
    endsAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
    note: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    uniqueIndex('entitlements_source_key').on(table.userId, table.source, table.sourceRef),
    index('entitlements_user_idx').on(table.userId, table.endsAt),
    // The VPN's sweep: rows changed, started or ended since its last run (vpn/fleet-sweep.ts).
    index('entitlements_updated_idx').on(table.updatedAt),
    index('entitlements_starts_idx').on(table.startsAt),
    index('entitlements_ends_idx').on(table.endsAt),
  ],
);

export type EntitlementRow = typeof entitlements.$inferSelect;
