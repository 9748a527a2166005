import { and, eq, isNull } from 'drizzle-orm';
import type { Adapter, AdapterPayload, ClientMetadata } from 'oidc-provider';
import type { Database } from '../../db/client.ts';
import { type OAuthClientRow, oauthClients } from '../../db/schema/index.ts';
import type { SecretBox } from '../../platform/crypto/secret-box.ts';

export { DEVICE_CODE_GRANT } from '#shared/oauth/client-rules.ts';

/** Our own metadata on a client, beside the protocol's. */
export const FIRST_PARTY = 'first_party';

/**
 * A client row as the provider's metadata. A public client (an app on a phone, a TV, a
 * router) has no secret and must use PKCE; it is `native`, so loopback and app-scheme
 * redirect URIs are allowed. A confidential one (a server) authenticates with its secret.
 */
export function clientMetadata(row: OAuthClientRow, box: SecretBox): ClientMetadata {
  const common = {
    client_id: row.clientId,
    client_name: row.name,
    redirect_uris: row.redirectUris,
    post_logout_redirect_uris: row.postLogoutRedirectUris,
    grant_types: row.grantTypes,
    response_types: row.grantTypes.includes('authorization_code') ? ['code' as const] : [],
    scope: row.scopes.join(' '),
    [FIRST_PARTY]: row.firstParty,
    ...(row.logoUri ? { logo_uri: row.logoUri } : {}),
  };
  if (row.type === 'public') {
    return { ...common, application_type: 'native', token_endpoint_auth_method: 'none' };
  }
  return {
    ...common,
    application_type: 'web',
    token_endpoint_auth_method: 'client_secret_basic',
    client_secret: row.secretSealed ? box.open(row.secretSealed) : undefined,
  };
}

/** The enabled client with this id, or undefined (unknown or disabled: refused alike). */
export async function enabledClient(
  db: Database,
  clientId: string,
): Promise<OAuthClientRow | undefined> {
  const [row] = await db
    .select()
    .from(oauthClients)
    .where(and(eq(oauthClients.clientId, clientId), isNull(oauthClients.disabledAt)))
    .limit(1);
  return row;
}

/**
 * The provider reads clients through an adapter for the `Client` model: ours reads the
 * oauth_clients table on every lookup, so a client staff disable or change is refused or
 * changed at once in every process. Clients are written by our admin screens, never by the
 * provider (dynamic registration is off).
 */
export class ClientAdapter implements Adapter {
  constructor(
    private readonly db: Database,
    private readonly box: SecretBox,
  ) {}

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (id.length > 255) return undefined;
    const row = await enabledClient(this.db, id);
    if (!row) return undefined;
    // A confidential client whose secret staff revoked cannot authenticate until it gets a
    // new one: unknown to the provider (invalid_client) rather than metadata it would reject.
    if (row.type === 'confidential' && !row.secretSealed) return undefined;
    return clientMetadata(row, this.box) as AdapterPayload;
  }

  async upsert(): Promise<void> {}
  async findByUserCode(): Promise<undefined> {}
  async findByUid(): Promise<undefined> {}
  async consume(): Promise<void> {}
  async destroy(): Promise<void> {}
  async revokeByGrantId(): Promise<void> {}
}
