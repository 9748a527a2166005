import type { FastifyRequest } from 'fastify';
import type { ApiArea } from '#shared/api-bases.ts';
import { ACCOUNT_MESSAGES } from '#shared/contracts/account.ts';
import { STAFF_ROLES } from '#shared/roles.ts';
import { AppError } from '../../http/app-error.ts';
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

/**
 * The owner of an account that is not deactivated: §4/§6 a deactivated user may only
 * reactivate (and sign out), so the server refuses everything else, whatever the page does.
 */
export function requireActiveAccount(request: FastifyRequest, area: ApiArea): ActiveSession {
  const owner = requireAccountOwner(request, area);
  if (owner.user.deleteAt) {
    throw new AppError('forbidden', { info: ACCOUNT_MESSAGES.accountDeactivated });
  }
  return owner;
}
