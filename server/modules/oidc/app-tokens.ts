import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { OidcApiScope } from '#shared/contracts/oidc.ts';
import { NODE_TOKEN_PREFIX } from '#shared/contracts/vpn-node.ts';
import { oidcModels, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';
import type { ActiveSession } from '../identity/sessions.ts';

import { enabledClient } from './oidc-clients.ts';

/**
 * An app's access token in `Authorization: Bearer …`, or undefined when there is none. A VPN
 * node's token (`vpnnode_…`) is not one: the node API's gate reads it, and on any other call
 * it opens nothing.
 */
export function bearerToken(header: string | undefined): string | undefined {
  const token = /^Bearer ([A-Za-z0-9._~+/-]{16,512}=*)$/.exec(header ?? '')?.[1];
  return token?.startsWith(NODE_TOKEN_PREFIX) ? undefined : token;
}

/**
 * The person an app acts for with this access token, for a call that takes `scope`: the
 * token must be live (not expired, revoked or of a disabled client), of a grant still
 * standing, for an account that may use the product, and carry the scope. Refused as the
 * protocol says (RFC 6750): `invalid_token` is 401, a missing scope 403.
 */
export async function appCaller(
  app: App,
  value: string,
  scope: OidcApiScope,
): Promise<ActiveSession> {
  const provider = await app.oidc.current();
  const token = await provider.AccessToken.find(value);
  const invalid = () => new AppError('unauthenticated', { info: 'errors.invalid_token' });
  if (!token?.grantId || !token.accountId || !token.clientId) throw invalid();
  const [client, grant] = await Promise.all([
    enabledClient(app.db, token.clientId),
    provider.Grant.find(token.grantId),
  ]);
  if (!client || !grant) throw invalid();
  const [user] = await app.db
    .select()
    .from(users)
    .where(eq(users.id, Number(token.accountId)))
    .limit(1);
  if (!user || user.blockedAt || user.deleteAt) throw invalid();
  if (!token.scopes.has(scope)) {
    throw new AppError('forbidden', { info: 'errors.insufficient_scope' });
  }
  // "Last used" for the person's connected apps: at most one write a minute per grant.
  await app.db
    .update(oidcModels)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(oidcModels.model, 'Grant'),
        eq(oidcModels.id, token.grantId),
        or(
          isNull(oidcModels.lastUsedAt),
          lt(oidcModels.lastUsedAt, sql`now() - interval '1 minute'`),
        ),
      ),
    );
  const now = new Date();
  return {
    user,
    // Not a browser session: an app's, named by its grant (nothing stores this row).
    session: {
      id: `app:${token.grantId}`,
      userId: user.id,
      tokenHash: '',
      role: user.role,
      ip: null,
      userAgent: client.name,
      createdAt: new Date((token.iat ?? 0) * 1000),
      lastSeenAt: now,
      expiresAt: new Date((token.exp ?? 0) * 1000),
    },
    app: { clientId: client.clientId, grantId: token.grantId },
  };
}
