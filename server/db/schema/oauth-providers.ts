import { boolean, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Social sign-in provider settings kept in the database (§7 OAuth), edited by staff; a row
 * overrides the environment's settings of the same provider (`OAUTH_*`). Secrets are sealed
 * with the app key (server/platform/crypto/secret-box.ts), never stored in the clear.
 */
export const oauthProviders = pgTable('oauth_providers', {
  /** 'google' or 'apple'. */
  id: text().primaryKey(),
  /** False switches the provider off even when the environment configures it. */
  enabled: boolean().notNull().default(true),
  issuer: text().notNull(),
  clientId: text().notNull(),
  /** Google: the client secret; Apple: the PEM private key of the sign-in key. Sealed. */
  secretSealed: text().notNull(),
  /** Apple only: the developer team and the key id that sign the client-secret JWT. */
  appleTeamId: text(),
  appleKeyId: text(),
  updatedAt: timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

export type OAuthProviderRow = typeof oauthProviders.$inferSelect;
