import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import { type OAuthClientRow, oauthClients } from '../../db/schema/index.ts';
import type { SecretBox } from '../../platform/crypto/secret-box.ts';

export interface NewOAuthClient {
  name: string;
  type: 'public' | 'confidential';
  firstParty: boolean;
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  grantTypes: string[];
  scopes: string[];
  logoUri?: string | null;
  /** Random unless given (the demo's fixed ids). */
  clientId?: string;
}

/** A client secret: 256 random bits behind a prefix that says what it is. */
export function newClientSecret(): string {
  return `vpncs_${randomBytes(32).toString('base64url')}`;
}

/**
 * Adds a client; a confidential one gets its secret, answered this once (only its sealed
 * copy is kept, for the provider to compare).
 */
export async function createOAuthClient(
  db: Database,
  box: SecretBox,
  input: NewOAuthClient,
): Promise<{ client: OAuthClientRow; secret: string | null }> {
  const secret = input.type === 'confidential' ? newClientSecret() : null;
  const [client] = await db
    .insert(oauthClients)
    .values({
      clientId: input.clientId ?? `vpnc_${randomBytes(12).toString('base64url')}`,
      name: input.name,
      type: input.type,
      firstParty: input.firstParty,
      redirectUris: input.redirectUris,
      postLogoutRedirectUris: input.postLogoutRedirectUris ?? [],
      grantTypes: input.grantTypes,
      scopes: input.scopes,
      logoUri: input.logoUri ?? null,
      secretSealed: secret ? box.seal(secret) : null,
      secretRotatedAt: secret ? new Date() : null,
    })
    .returning();
  if (!client) throw new Error('client insert returned nothing');
  return { client, secret };
}
