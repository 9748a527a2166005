import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

// Every admin and security action leaves a row here (sign-in, password change, role
// change, refunds …). Rows are never updated; the actor is kept as null if the user goes.
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    actorId: integer().references(() => users.id, { onDelete: 'set null' }),
    action: text().notNull(),
    subjectType: text(),
    subjectId: text(),
    ip: text(),
    userAgent: text(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('audit_log_created_at_idx').on(table.createdAt),
    index('audit_log_actor_idx').on(table.actorId, table.createdAt),
    // A customer's trail and the viewer's subject filter (§2 /admin/customers/{id}, /admin/logs).
    index('audit_log_subject_idx').on(table.subjectType, table.subjectId, table.createdAt),
  ],
);

export type AuditLogRow = typeof auditLog.$inferSelect;
