import { call } from '../api/client.ts';
import { storedUser, storeUser } from './browser-storage.ts';
import { authUserCall } from './session-calls.ts';
import { getSession, updateSession } from './session-store.ts';

let checked: Promise<boolean> | undefined;

/**
 * §2 "when a user is known, an authentication check (user fetch) is made": the stored user
 * record says someone signed in here before; the server says whether that still holds.
 * Resolves false when the check failed (the stored record is then forgotten).
 */
export async function checkAuth(): Promise<boolean> {
  const known = storedUser();
  if (!known || getSession().user) return true;
  try {
    const { user } = await call(authUserCall(known.role));
    updateSession({ user });
    storeUser(user);
    return true;
  } catch {
    storeUser(null);
    return false;
  }
}

/**
 * §2 "On first navigation …": the check runs once per page load, and a false answer sends
 * the router to sign in. Later changes arrive through sign-in, sign-out and live events.
 */
export function checkAuthOnce(): Promise<boolean> {
  checked ??= checkAuth();
  return checked;
}
