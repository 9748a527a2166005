import type { FastifyRequest } from 'fastify';
import type { ApiArea } from '#shared/api-bases.ts';
import { STAFF_ROLES } from '#shared/roles.ts';
import { requireAuth, requireRole } from '../auth/auth-plugin.ts';
import type { ActiveSession } from '../auth/sessions.ts';

/**
 * The signed-in owner of the account being changed. The same account routes serve the
 * customer area (account base, any signed-in user) and /admin/account (dashboard base,
 * staff only, §2).
 */
export function requireAccountOwner(request: FastifyRequest, area: ApiArea): ActiveSession {
  return area === 'dashboard' ? requireRole(request, STAFF_ROLES) : requireAuth(request);
}
