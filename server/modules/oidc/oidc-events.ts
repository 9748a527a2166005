import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { sessions } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { type AuditEntry, recordAudit } from '../audit/audit-log.ts';
import { sessionCookieName } from '../identity/auth-plugin.ts';
import { hashToken } from '../identity/secrets.ts';

/** Answers that are the protocol working, not someone trying something. */
const ROUTINE = new Set([
  'authorization_pending',
  'slow_down',
  'login_required',
  'consent_required',
  'interaction_required',
  'account_selection_required',
]);

interface ProtocolError {
  error?: string;
  error_description?: string;
  status?: number;
}

/** The caller as the audit log keeps it: the address (the proxy's rules applied) and agent. */
function callerOf(ctx: KoaContextWithOIDC): Pick<FastifyRequest, 'ip' | 'headers'> {
  return { ip: ctx.ip, headers: ctx.req.headers };
}

/**
 * What goes to the audit log from the provider: every refusal that is not routine (a
 * redirect URI that is not the client's, a PKCE verifier that does not match, a code used
 * twice, a refresh token replayed after its grace, an expired device code) and every grant
 * revoked (reuse detection, an app signed out). Never in the way of the answer: a failed
 * write is logged.
 */
export function watchProviderEvents(app: App, provider: Provider): void {
  const record = (ctx: KoaContextWithOIDC, entry: Omit<AuditEntry, 'actorId'>) => {
    const accountId = Number(ctx.oidc?.account?.accountId ?? ctx.oidc?.session?.accountId);
    const actorId = Number.isSafeInteger(accountId) && accountId > 0 ? accountId : null;
    recordAudit(app.db, callerOf(ctx), { actorId, ...entry }).catch((error: unknown) =>
      app.log.error({ err: error }, 'OpenID audit entry not written'),
    );
  };
  const refused = (where: string) => (ctx: KoaContextWithOIDC, error: ProtocolError) => {
    if (!error.error || ROUTINE.has(error.error)) return;
    if ((error.status ?? 400) >= 500) return;
    record(ctx, {
      action: 'oidc.refused',
      subjectType: 'oauth_client',
      subjectId: ctx.oidc?.client?.clientId ?? String(ctx.oidc?.params?.client_id ?? ''),
      data: {
        endpoint: where,
        error: error.error,
        description: error.error_description,
        grant_type: ctx.oidc?.params?.grant_type,
      },
    });
  };
  provider.on('authorization.error', refused('authorization'));
  provider.on('grant.error', refused('token'));
  provider.on('device_authorization.error', refused('device_authorization'));
  provider.on('revocation.error', refused('revocation'));
  provider.on('introspection.error', refused('introspection'));
  provider.on('end_session.error', refused('end_session'));
  provider.on('grant.revoked', (ctx: KoaContextWithOIDC, grantId: string) =>
    record(ctx, {
      action: 'oidc.grant_revoked',
      subjectType: 'oauth_client',
      subjectId: ctx.oidc?.client?.clientId ?? '',
      data: { grant_id: grantId },
    }),
  );
  // Signing out through an app (RP-initiated logout, confirmed on our page) signs the person
  // out of the product in this browser too: the provider's session only stands with ours.
  provider.on('end_session.success', (ctx: KoaContextWithOIDC) => {
    const token = ctx.cookies.get(sessionCookieName(app.config));
    if (!token) return;
    app.db
      .delete(sessions)
      .where(eq(sessions.tokenHash, hashToken(token)))
      .catch((error: unknown) => app.log.error({ err: error }, 'product session not ended'));
  });
  provider.on('server_error', (_ctx: KoaContextWithOIDC, error: Error) =>
    app.log.error({ err: error }, 'OpenID provider error'),
  );
}
