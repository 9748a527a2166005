import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { auditLog } from '../../db/schema/index.ts';

/** Actions the audit log records; one name per kind of event, past tense. */
export type AuditAction =
  | 'auth.signed_up'
  | 'auth.signed_in'
  | 'auth.sign_in_failed'
  | 'auth.signed_out'
  | 'auth.email_verified'
  | 'auth.verification_sent'
  | 'auth.password_reset_requested'
  | 'auth.password_reset'
  | 'auth.password_set'
  | 'auth.two_factor_failed'
  | 'auth.link_refused'
  | 'account.profile_updated'
  | 'account.email_change_requested'
  | 'account.email_change_cancelled'
  | 'account.email_changed'
  | 'account.email_change_failed'
  | 'account.password_changed'
  | 'account.password_set_link_sent'
  | 'account.photo_updated'
  | 'account.photo_removed'
  | 'account.deactivated'
  | 'account.reactivated'
  | 'account.device_logged_out'
  | 'account.other_devices_logged_out'
  | 'account.all_devices_logged_out'
  | 'account.password_check_failed'
  | 'account.deleted'
  | 'two_factor.setup_started'
  | 'two_factor.enabled'
  | 'two_factor.disabled'
  | 'two_factor.recovery_codes_downloaded'
  | 'two_factor.recovery_code_used'
  | 'oauth.signed_in'
  | 'oauth.linked'
  | 'oauth.sign_in_failed'
  | 'oauth.provider_updated';

export interface AuditEntry {
  action: AuditAction;
  actorId: number | null;
  subjectType?: string;
  subjectId?: string | number;
  data?: Record<string, unknown>;
}

/**
 * Writes one row: who did what, from which address and browser, when. `request` is null for
 * the server's own scheduled work, which has neither.
 *
 * A row that records a change is written with `db` the transaction of that change, so the
 * two commit or roll back together: no change goes unrecorded, no row tells of a change that
 * did not happen. A refusal that changes nothing (a wrong password, a refused link) is
 * written on its own.
 */
export async function recordAudit(
  db: Database,
  request: Pick<FastifyRequest, 'ip' | 'headers'> | null,
  entry: AuditEntry,
): Promise<void> {
  await db.insert(auditLog).values({
    action: entry.action,
    actorId: entry.actorId,
    subjectType: entry.subjectType ?? null,
    subjectId: entry.subjectId === undefined ? null : String(entry.subjectId),
    ip: request?.ip ?? null,
    userAgent: request?.headers['user-agent']?.slice(0, 512) ?? null,
    data: entry.data ?? {},
  });
}

/** An action a user took on their own account: the user is actor and subject. */
export function recordOwnAction(
  db: Database,
  request: Pick<FastifyRequest, 'ip' | 'headers'>,
  action: AuditAction,
  user: { id: number },
  data?: Record<string, unknown>,
): Promise<void> {
  return recordAudit(db, request, {
    action,
    actorId: user.id,
    subjectType: 'user',
    subjectId: user.id,
    data,
  });
}
