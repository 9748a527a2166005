import type { AuthUserResponse } from '#shared/contracts/auth-user.ts';
import type { Lang } from '#shared/locales.ts';
import { api } from '../api/client.ts';
import { pathFor } from '../routes/match-route.ts';
import type { UserChangeEffects } from './apply-user-change.ts';
import { authUserPath } from './auth-check.ts';
import { storeUser } from './browser-storage.ts';
import { ensureSubscription } from './current-subscription.ts';
import { getSession, resetSession } from './session-store.ts';

/** The real effects of §4 reactions: router navigation, the server, browser storage. */
export function userChangeEffects(
  navigate: (to: string) => Promise<void> | void,
  lang: Lang,
): UserChangeEffects {
  return {
    goTo: (name) => navigate(pathFor(name, lang)),
    fetchUser: async () => {
      const { user } = await api.post<AuthUserResponse>(authUserPath(getSession().user?.role));
      return user;
    },
    clearLocal: () => {
      resetSession();
      storeUser(null);
      try {
        localStorage.clear();
      } catch {
        // storage may be unavailable (private mode); nothing to clear then
      }
    },
    reloadSubscription: () => ensureSubscription(),
  };
}
