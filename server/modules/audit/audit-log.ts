import type { FastifyRequest } from 'fastify';
import type { AuditAction } from '#shared/audit-actions.ts';
import type { Database } from '../../db/client.ts';
import { auditLog } from '../../db/schema/index.ts';

export type { AuditAction } from '#shared/audit-actions.ts';

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
