import { and, count, desc, eq, gte, ilike, lt, or, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type {
  AuditEntry,
  AuditEntryDetail,
  AuditLogQuery,
} from '#shared/contracts/admin/audit-logs.ts';
import { listPage, pageWindow } from '#shared/contracts/list.ts';
import type { Database } from '../../db/client.ts';
import { containing } from '../../db/like.ts';
import { type AuditLogRow, auditLog, users } from '../../db/schema/index.ts';
import { notFoundError } from '../../http/error-handler.ts';

const actors = alias(users, 'actor');
const DAY_MS = 86_400_000;

function conditions(query: AuditLogQuery): SQL | undefined {
  const where: (SQL | undefined)[] = [];
  if (query.actor_id !== undefined) where.push(eq(auditLog.actorId, query.actor_id));
  if (query.actor) {
    const pattern = containing(query.actor);
    where.push(or(ilike(actors.email, pattern), ilike(actors.name, pattern)));
  }
  if (query.subject_type) where.push(eq(auditLog.subjectType, query.subject_type));
  if (query.subject_id) where.push(eq(auditLog.subjectId, query.subject_id));
  if (query.user_id !== undefined) {
    where.push(
      or(
        eq(auditLog.actorId, query.user_id),
        and(eq(auditLog.subjectType, 'user'), eq(auditLog.subjectId, String(query.user_id))),
      ),
    );
  }
  if (query.action) where.push(eq(auditLog.action, query.action));
  // Whole days in UTC, both ends included.
  if (query.from) where.push(gte(auditLog.createdAt, new Date(`${query.from}T00:00:00Z`)));
  if (query.to) {
    where.push(lt(auditLog.createdAt, new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS)));
  }
  return and(...where);
}

type Actor = { id: number; email: string; name: string | null } | null;

function present(row: AuditLogRow, actor: Actor): AuditEntry {
  return {
    id: row.id,
    action: row.action,
    actor: actor ? { id: actor.id, email: actor.email, name: actor.name } : null,
    actor_id: row.actorId,
    subject_type: row.subjectType,
    subject_id: row.subjectId,
    ip: row.ip,
    created_at: row.createdAt.toISOString(),
  };
}

const actorColumns = { id: actors.id, email: actors.email, name: actors.name };

/** §2 /admin/logs: the entries that match, newest first, a page at a time. */
export async function listAuditEntries(db: Database, query: AuditLogQuery) {
  const where = conditions(query);
  const { offset, limit } = pageWindow(query);
  const [rows, [total]] = await Promise.all([
    db
      .select({ entry: auditLog, actor: actorColumns })
      .from(auditLog)
      .leftJoin(actors, eq(actors.id, auditLog.actorId))
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .offset(offset)
      .limit(limit),
    db
      .select({ n: count() })
      .from(auditLog)
      .leftJoin(actors, eq(actors.id, auditLog.actorId))
      .where(where),
  ]);
  const items = rows.map((row) => present(row.entry, row.actor?.id ? row.actor : null));
  return listPage(items, query, total?.n ?? 0);
}

/** §2 /admin/logs/{id}: one entry, whole. */
export async function auditEntry(db: Database, id: number): Promise<AuditEntryDetail> {
  const [row] = await db
    .select({ entry: auditLog, actor: actorColumns })
    .from(auditLog)
    .leftJoin(actors, eq(actors.id, auditLog.actorId))
    .where(eq(auditLog.id, id))
    .limit(1);
  if (!row) throw notFoundError();
  return {
    ...present(row.entry, row.actor?.id ? row.actor : null),
    user_agent: row.entry.userAgent,
    data: row.entry.data,
  };
}
