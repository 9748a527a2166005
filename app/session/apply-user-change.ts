import type { AuthUser } from '#shared/contracts/auth-user.ts';
import { isStaff } from '#shared/roles.ts';
import type { RouteName } from '../routes/route-table.ts';
import { storeUser } from './browser-storage.ts';
import { getSession, updateSession } from './session-store.ts';
import { LOGOUT_OVERLAY_MS } from './sign-out.ts';
import { unverifiedAccessPages, userChange } from './user-change.ts';

export interface UserChangeEffects {
  /** Navigates to a named route in the current language. */
  goTo(routeName: RouteName): Promise<void> | void;
  /** §4 "re-check auth": asks the server for the user again. */
  fetchUser(): Promise<AuthUser>;
  /** Forgets everything local (store, storage); the session cookie is already gone. */
  clearLocal(): Promise<void> | void;
  /** §4 "reload the subscription". */
  reloadSubscription(): Promise<unknown>;
}

/**
 * Takes a new value of the signed-in user (a live event, or the answer of an account call)
 * and runs the §4 reaction its change calls for, first match wins. Returns which one ran.
 */
export async function applyUserChange(next: AuthUser | null, effects: UserChangeEffects) {
  const previous = getSession().user;
  const change = userChange(previous, next);
  switch (change) {
    case 'loggedOut':
      updateSession({ logoutOverlay: true });
      await effects.clearLocal();
      await effects.goTo('signin');
      setTimeout(() => updateSession({ logoutOverlay: false }), LOGOUT_OVERLAY_MS);
      break;
    case 'defaultSourceChanged':
      updateSession({ user: next });
      break;
    case 'reactivated':
    case 'verified': {
      const user = await effects.fetchUser();
      updateSession({ user, subscription: undefined, accessPages: [] });
      storeUser(user);
      await effects.reloadSubscription();
      await effects.goTo(isStaff(user.role) ? 'admin.dashboard' : 'dashboard');
      break;
    }
    case 'deactivated':
      updateSession({ user: next, accessPages: ['reactivate-account'] });
      await effects.goTo('reactivate-account');
      break;
    case 'unverified': {
      const hasSubscription = Boolean(getSession().subscription?.current);
      updateSession({ user: next, accessPages: unverifiedAccessPages(hasSubscription) });
      break;
    }
    case null:
      if (next) updateSession({ user: next });
      break;
  }
  return change;
}
