import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { gatewayName } from './billing-enums.ts';

/**
 * Every event a gateway reported (a webhook, or what reconciliation found), stored with its
 * outcome: the unique id makes a replay change nothing, and staff and the audit log can see
 * what each gateway said and what we did with it.
 */
export const gatewayEvents = pgTable(
  'gateway_events',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    gateway: gatewayName().notNull(),
    /** The gateway's id of the event. */
    eventRef: text().notNull(),
    type: text().notNull(),
    payload: jsonb().$type<unknown>().notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** `applied`, `ignored` (older than what we hold, or not ours), or `failed` with error. */
    outcome: text(),
    error: text(),
    processedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    uniqueIndex('gateway_events_ref_key').on(table.gateway, table.eventRef),
    index('gateway_events_received_idx').on(table.receivedAt),
  ],
);
