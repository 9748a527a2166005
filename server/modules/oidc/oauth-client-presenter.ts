import type { AdminOAuthClient } from '#shared/contracts/admin/oauth-clients.ts';
import type { OAuthClientRow } from '../../db/schema/index.ts';

/**
 * A client as staff see it. The sealed secret becomes `has_secret`: nothing else of it ever
 * leaves the server (it is answered once, in the clear, by create and rotate alone).
 */
export function presentOAuthClient(row: OAuthClientRow, grants: number): AdminOAuthClient {
  return {
    client_id: row.clientId,
    name: row.name,
    type: row.type,
    first_party: row.firstParty,
    redirect_uris: row.redirectUris,
    post_logout_redirect_uris: row.postLogoutRedirectUris,
    grant_types: row.grantTypes,
    scopes: row.scopes,
    logo_uri: row.logoUri,
    has_secret: row.secretSealed !== null,
    secret_rotated_at: row.secretRotatedAt?.toISOString() ?? null,
    disabled_at: row.disabledAt?.toISOString() ?? null,
    grants,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
