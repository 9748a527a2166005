import { integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const countries = pgTable(
  'countries',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    /** ISO 3166-1 alpha-2, upper case. */
    code: text().notNull(),
    name: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('countries_code_key').on(table.code)],
);
