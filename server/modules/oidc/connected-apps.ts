import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { ConnectedApp } from '#shared/contracts/connected-apps.ts';
import type { Database } from '../../db/client.ts';
import { oauthClients, oidcModels } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { revokeGrant } from './grants.ts';

interface GrantPayload {
  clientId?: string;
  openid?: { scope?: string };
}

const liveGrants = (userId: number) =>
  and(
    eq(oidcModels.model, 'Grant'),
    eq(oidcModels.accountId, String(userId)),
    or(isNull(oidcModels.expiresAt), gt(oidcModels.expiresAt, sql`now()`)),
  );

/** The apps a person allowed, newest first. */
export async function connectedApps(db: Database, userId: number): Promise<ConnectedApp[]> {
  const rows = await db
    .select({ grant: oidcModels, client: oauthClients })
    .from(oidcModels)
    .innerJoin(oauthClients, eq(oauthClients.clientId, oidcModels.clientId))
    .where(liveGrants(userId))
    .orderBy(desc(oidcModels.createdAt));
  return rows.map(({ grant, client }) => ({
    grant_id: grant.id,
    client: { name: client.name, logo_uri: client.logoUri, first_party: client.firstParty },
    scopes: ((grant.payload as GrantPayload).openid?.scope ?? '').split(' ').filter(Boolean),
    device_name: grant.label,
    created_at: grant.createdAt.toISOString(),
    last_used_at: grant.lastUsedAt?.toISOString() ?? null,
  }));
}

/**
 * Signs apps out: one grant of this person (someone else's is not found), or all of theirs.
 * Answers the grants ended, for what hangs on them (the VPN devices they added).
 */
export async function revokeConnectedApps(
  db: Database,
  request: Pick<FastifyRequest, 'ip' | 'headers'>,
  userId: number,
  grantId?: string,
): Promise<string[]> {
  return db.transaction(async (tx) => {
    const grants = await tx
      .select({ id: oidcModels.id, clientId: oidcModels.clientId })
      .from(oidcModels)
      .where(
        and(liveGrants(userId), grantId === undefined ? undefined : eq(oidcModels.id, grantId)),
      );
    if (grantId !== undefined && grants.length === 0) throw new AppError('not_found');
    for (const grant of grants) {
      await revokeGrant(tx, grant.id);
      await recordAudit(tx, request, {
        action: 'oidc.app_revoked',
        actorId: userId,
        subjectType: 'oauth_client',
        subjectId: grant.clientId ?? '',
        data: { grant_id: grant.id },
      });
    }
    return grants.map((grant) => grant.id);
  });
}
