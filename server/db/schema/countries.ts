import {
  boolean,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { Lang } from '#shared/locales.ts';

export const countries = pgTable(
  'countries',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    /** ISO 3166-1 alpha-2, upper case. */
    code: text().notNull(),
    /** The English name. */
    name: text().notNull(),
    /** The name in each language of the product (§1); every ISO 3166-1 country is seeded. */
    names: jsonb().$type<Partial<Record<Lang, string>>>().notNull().default({}),
    /** Listed to customers as a VPN location while it has servers (staff may hide it). */
    vpnVisible: boolean().notNull().default(true),
    /** Its place in the customers' location list, lowest first, then by name. */
    vpnSort: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('countries_code_key').on(table.code)],
);
