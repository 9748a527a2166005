import { auditLogEndpoints } from '#shared/contracts/admin/audit-logs.ts';
import type { Database } from '../../db/client.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import { auditEntry, listAuditEntries } from './audit-query.ts';

/** §2 the audit-log viewer (admin, `logging` flag). */
export function auditLogRoutes({ db }: { db: Database }): Route[] {
  return [
    route(auditLogEndpoints.list, ({ query }) => listAuditEntries(db, query)),
    route(auditLogEndpoints.view, async ({ query }) => ({ entry: await auditEntry(db, query.id) })),
  ];
}
