import { z } from 'zod';
import { AUDIT_ACTIONS } from '../../audit-actions.ts';
import { recordId } from '../../validation/record-id.ts';
import { endpoint } from '../endpoint.ts';
import { listResponse, pagingQuery } from '../list.ts';

// §2 /admin/logs and /admin/logs/{id}: the audit log, newest first, for admins while the
// `logging` feature flag is on (§1).

const id = z.coerce
  .number({ error: 'input_errors.field_is_invalid' })
  .int({ error: 'input_errors.field_is_invalid' })
  .positive({ error: 'input_errors.field_is_invalid' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'input_errors.field_is_invalid' });
const day = z.iso.date({ error: 'input_errors.field_is_invalid' });

export const auditActor = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string().nullable(),
});

export const auditEntry = z.object({
  id: z.number().int(),
  action: z.string(),
  /** Who did it: null for the server's own work, or an account since deleted. */
  actor: auditActor.nullable(),
  actor_id: z.number().int().nullable(),
  subject_type: z.string().nullable(),
  subject_id: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditEntryDetail = auditEntry.extend({
  user_agent: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type AuditEntryDetail = z.infer<typeof auditEntryDetail>;

/**
 * Filters: the actor (by id, or by e-mail or name), the subject (type and id), the action,
 * a range of days (UTC, both ends included); `user_id` is either side, for one customer's
 * trail.
 */
export const auditLogQuery = pagingQuery.extend({
  actor: z.string().trim().max(255).optional(),
  actor_id: recordId.optional(),
  subject_type: z.enum(['user'], { error: 'input_errors.field_is_invalid' }).optional(),
  subject_id: z.string().trim().max(64).optional(),
  user_id: recordId.optional(),
  action: z.enum(AUDIT_ACTIONS, { error: 'input_errors.field_is_invalid' }).optional(),
  from: day.optional(),
  to: day.optional(),
});
export type AuditLogQuery = z.infer<typeof auditLogQuery>;

export const auditLogResponse = listResponse(auditEntry);
export type AuditLogResponse = z.infer<typeof auditLogResponse>;

export const auditEntryResponse = z.object({ entry: auditEntryDetail });

const admin = { base: 'dashboard', access: { permission: 'logs' }, feature: 'logging' } as const;

export const auditLogEndpoints = {
  list: endpoint({
    ...admin,
    tag: 'logs',
    method: 'GET',
    path: '/logs',
    summary: 'Audit entries, newest first, filtered and paged',
    query: auditLogQuery,
    response: auditLogResponse,
  }),
  view: endpoint({
    ...admin,
    tag: 'logs',
    method: 'GET',
    path: '/logs/view',
    summary: 'One audit entry, whole',
    query: z.object({ id }),
    response: auditEntryResponse,
  }),
};
