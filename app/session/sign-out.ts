import { call } from '../api/client.ts';
import { notify } from '../ui/toast.tsx';
import { storeUser } from './browser-storage.ts';
import { announceLogout } from './cross-tab.ts';
import { signOutCall } from './session-calls.ts';
import { resetSession, updateSession } from './session-store.ts';

/** §9 "Logout overlay hidden 1 s after redirect". */
export const LOGOUT_OVERLAY_MS = 1000;

/**
 * Ends the session on the server and forgets it here (§4 reaction 1): the store and local
 * storage. The session cookie is httpOnly; the coupon cookie is not (a promotion code the
 * order page reads, no secret); the sign-out response clears both.
 */
export async function endSession(options: { emailChangeFailed?: boolean } = {}): Promise<void> {
  try {
    await call(signOutCall);
  } catch {
    // Already signed out, or offline: the local state goes either way.
  }
  forgetSession();
  announceLogout();
  if (options.emailChangeFailed) {
    notify.danger('toasts.email_change_failed_title', {
      description: 'toasts.email_change_failed_text',
    });
  }
}

/** §4 reaction 1, local part: the store, the stored user record and local storage. */
export function forgetSession(): void {
  resetSession();
  storeUser(null);
  try {
    localStorage.clear();
  } catch {
    // storage may be unavailable (private mode); nothing to clear then
  }
}

/**
 * The avatar menu's sign out: overlay, end the session, go to sign in, then drop the overlay.
 * `local`: the session already ended elsewhere (another tab of this browser), so only this
 * page is tidied, without asking the server or telling the other tabs again.
 */
export async function signOut(
  goToSignin: () => Promise<void> | void,
  options: { local?: boolean } = {},
): Promise<void> {
  updateSession({ logoutOverlay: true });
  if (options.local) forgetSession();
  else await endSession();
  await goToSignin();
  setTimeout(() => updateSession({ logoutOverlay: false }), LOGOUT_OVERLAY_MS);
}
