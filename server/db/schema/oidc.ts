import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * The apps that sign in through us (§2 /admin/oauth/server): our VPN apps, TVs, routers and
 * partners' relying parties. `client_id` is public; a confidential client's secret is sealed
 * with the app key (the provider compares it in the clear), never shown after it is made.
 */
export const oauthClients = pgTable(
  'oauth_clients',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: text().notNull(),
    name: text().notNull(),
    /** `public` (apps on a device: PKCE, no secret) or `confidential` (a server with a secret). */
    type: text().$type<'public' | 'confidential'>().notNull(),
    /** Ours: no consent screen, even for `offline_access`. */
    firstParty: boolean().notNull().default(false),
    redirectUris: text().array().notNull().default(sql`'{}'::text[]`),
    postLogoutRedirectUris: text().array().notNull().default(sql`'{}'::text[]`),
    grantTypes: text().array().notNull(),
    scopes: text().array().notNull(),
    logoUri: text(),
    secretSealed: text(),
    secretRotatedAt: timestamp({ withTimezone: true }),
    /** Set: the client is refused everywhere and its tokens stop working. */
    disabledAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [uniqueIndex('oauth_clients_client_id_key').on(table.clientId)],
);

export type OAuthClientRow = typeof oauthClients.$inferSelect;

/**
 * What the OpenID provider stores (its adapter, server/modules/oidc/oidc-adapter.ts): grants,
 * codes, tokens, sessions, interactions, one row per model and id. Token-like ids are kept as
 * their SHA-256, so a copy of this table holds no usable token; `account_id` and `client_id`
 * are copied out of the payload for the connected-apps list and for revoking.
 */
export const oidcModels = pgTable(
  'oidc_models',
  {
    model: text().notNull(),
    id: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    grantId: text(),
    userCodeHash: text(),
    uid: text(),
    accountId: text(),
    clientId: text(),
    expiresAt: timestamp({ withTimezone: true }),
    consumedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** When a token of this grant was last used to call us (connected apps' "last used"). */
    lastUsedAt: timestamp({ withTimezone: true }),
    /** What the person called the device a grant's app runs on (a TV, a router). */
    label: text(),
  },
  (table) => [
    primaryKey({ columns: [table.model, table.id] }),
    index('oidc_models_grant_idx').on(table.grantId),
    uniqueIndex('oidc_models_user_code_key')
      .on(table.userCodeHash)
      .where(sql`${table.userCodeHash} IS NOT NULL`),
    index('oidc_models_uid_idx').on(table.uid).where(sql`${table.uid} IS NOT NULL`),
    index('oidc_models_account_idx').on(table.accountId, table.model),
    index('oidc_models_expires_idx').on(table.expiresAt),
  ],
);

export type OidcModelRow = typeof oidcModels.$inferSelect;

/**
 * The provider's signing keys (JWKS). The newest active key signs; a retired one stays
 * published until `expires_at`, when no token it signed can still be valid. Private parts
 * are sealed with the app key.
 */
export const oidcSigningKeys = pgTable('oidc_signing_keys', {
  kid: text().primaryKey(),
  alg: text().notNull(),
  privateJwkSealed: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  retiredAt: timestamp({ withTimezone: true }),
  expiresAt: timestamp({ withTimezone: true }),
});

export type OidcSigningKeyRow = typeof oidcSigningKeys.$inferSelect;

/**
 * A customer's passkeys (WebAuthn credentials). The public key and the signature counter are
 * what a sign-in is checked against; a counter that goes backwards means a cloned key.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id, base64url. */
    credentialId: text().notNull(),
    /** The COSE public key, base64url. */
    publicKey: text().notNull(),
    counter: integer().notNull().default(0),
    transports: text().array().notNull().default(sql`'{}'::text[]`),
    /** The authenticator model (AAGUID), to name it; all zeros when it does not say. */
    aaguid: text(),
    /** Synced across the person's devices (a multi-device credential) or bound to one. */
    backedUp: boolean().notNull().default(false),
    name: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    uniqueIndex('passkeys_credential_id_key').on(table.credentialId),
    index('passkeys_user_idx').on(table.userId),
  ],
);

export type PasskeyRow = typeof passkeys.$inferSelect;

/**
 * A WebAuthn ceremony's challenge, kept until it is answered once or expires (five
 * minutes): registration for a signed-in user, sign-in before anyone is known (the
 * browser's autofill). The browser holds the id in a cookie; only its hash is stored.
 */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    idHash: text().primaryKey(),
    purpose: text().$type<'register' | 'sign-in'>().notNull(),
    userId: integer().references(() => users.id, { onDelete: 'cascade' }),
    challenge: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [index('passkey_challenges_expires_idx').on(table.expiresAt)],
);
