import type { AuthUser } from '#shared/contracts/auth-user.ts';

/** §4 "User-change reactions (first match wins)", in order. */
export type UserChange =
  | 'loggedOut'
  | 'defaultSourceChanged'
  | 'reactivated'
  | 'deactivated'
  | 'verified'
  | 'unverified';

/**
 * Which reaction a change of the signed-in user calls for, or null for none. Pure: the
 * caller (applyUserChange) performs it. Reactivation and verification need the same user
 * before and after; a different user is a new session, not a change.
 */
export function userChange(previous: AuthUser | null, next: AuthUser | null): UserChange | null {
  if (previous && !next) return 'loggedOut';
  if (!previous || !next || previous.id !== next.id) return null;
  if (previous.default_source !== next.default_source) return 'defaultSourceChanged';
  if (previous.delete_at && !next.delete_at) return 'reactivated';
  if (!previous.delete_at && next.delete_at) return 'deactivated';
  if (!previous.activated && next.activated) return 'verified';
  if (previous.activated && !next.activated) return 'unverified';
  return null;
}

/** §4 reaction 6: what an unverified user may still open. */
export function unverifiedAccessPages(hasSubscription: boolean): string[] {
  return hasSubscription ? ['email.verify', 'order-received.thanks'] : ['email.verify'];
}
