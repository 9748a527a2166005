import { boolean, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { gatewayName } from './billing-enums.ts';

/**
 * A real gateway's keys as staff set them (admin gateway settings); a row overrides the
 * environment's keys of the same gateway. The secret fields are sealed together with the
 * app key (server/platform/crypto/secret-box.ts), never stored in the clear.
 */
export const gatewaySettings = pgTable('gateway_settings', {
  gateway: gatewayName().primaryKey(),
  /** False switches the gateway off even when the environment configures it. */
  enabled: boolean().notNull().default(true),
  /** The fields that are not secret (client id, environment, API URL …). */
  settings: jsonb().$type<Record<string, unknown>>().notNull(),
  /** The secret fields as one sealed JSON object. */
  secretsSealed: text().notNull(),
  updatedAt: timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

export type GatewaySettingsRow = typeof gatewaySettings.$inferSelect;
