import type { FastifyRequest } from 'fastify';
import { ACCOUNT_MESSAGES } from '#shared/contracts/account.ts';
import type { Access } from '#shared/contracts/endpoint.ts';
import { hasPermission } from '#shared/permissions.ts';
import type { Role } from '#shared/roles.ts';
import { AppError } from './app-error.ts';

/** The people who sign in to the site; VPN_SERVER is a machine and opens only its own routes. */
const PEOPLE: readonly Role[] = ['USER', 'ADMIN', 'AUTHOR'];

/** What the gate needs to know about the caller: nothing when they are not signed in. */
export interface Caller {
  role: Role;
  deactivated: boolean;
  verified: boolean;
}

export function callerOf(request: FastifyRequest): Caller | null {
  const user = request.auth?.user;
  if (!user) return null;
  return { role: user.role, deactivated: user.deleteAt !== null, verified: !!user.emailVerifiedAt };
}

const DEACTIVATED = () => new AppError('forbidden', { info: ACCOUNT_MESSAGES.accountDeactivated });
const UNVERIFIED = () => new AppError('forbidden', { info: ACCOUNT_MESSAGES.emailUnverified });

/**
 * Why `caller` may not call an endpoint of `access`, or null when they may. 401 when
 * signing in could help, 403 when it could not.
 */
export function refusal(access: Access, caller: Caller | null): AppError | null {
  if (access === 'public' || access === 'own-signature') return null;
  // A node proves itself with its bearer token, which the node routes' own hook checks
  // (server/modules/vpn/node-auth.ts); a person's session never opens them.
  if (access === 'node') return null;
  if (!caller) return new AppError('unauthenticated');
  if (typeof access === 'object') {
    if (!hasPermission(caller.role, access.permission)) return new AppError('forbidden');
    return caller.deactivated && !access.deactivated ? DEACTIVATED() : null;
  }
  if (!PEOPLE.includes(caller.role)) return new AppError('forbidden');
  if (access === 'signed-in') return null;
  if (caller.deactivated) return DEACTIVATED();
  if (access === 'verified' && !caller.verified) return UNVERIFIED();
  return null;
}
