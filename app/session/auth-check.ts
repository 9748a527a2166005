import { API_BASES } from '#shared/api-bases.ts';
import type { AuthUserResponse } from '#shared/contracts/auth-user.ts';
import { isStaff, type Role } from '#shared/roles.ts';
import { api } from '../api/client.ts';
import { storedUser, storeUser } from './browser-storage.ts';
import { getSession, updateSession } from './session-store.ts';

let checked: Promise<boolean> | undefined;

/** §7 get-auth-user lives on the dashboard base for staff and the account base otherwise. */
export function authUserPath(role: Role | undefined): string {
  return `${isStaff(role) ? API_BASES.dashboard : API_BASES.account}/users/get-auth-user`;
}

/**
 * §2 "On first navigation, when a user is known, an authentication check (user fetch) is
 * made." Resolves false when that check failed, so the router sends the user to sign in.
 * Runs once per page load; later changes arrive through sign-in, sign-out and live events.
 */
export function checkAuthOnce(): Promise<boolean> {
  checked ??= (async () => {
    const known = storedUser();
    if (!known || getSession().user) return true;
    try {
      const { user } = await api.post<AuthUserResponse>(authUserPath(known.role));
      updateSession({ user });
      storeUser(user);
      return true;
    } catch {
      storeUser(null);
      return false;
    }
  })();
  return checked;
}
