import type { AuthUser } from '#shared/contracts/auth-user.ts';
import { storeUser } from '../../session/browser-storage.ts';
import { updateSession } from '../../session/session-store.ts';

/**
 * A user the server has just signed in. The subscription is forgotten so that the next
 * route that needs it loads this user's; the stored record lets a reload ask the server.
 */
export function startSession(user: AuthUser): void {
  updateSession({ user, subscription: undefined });
  storeUser(user);
}
