import type { AuthUserResponse } from '#shared/contracts/auth-user.ts';
import type { Lang } from '#shared/locales.ts';
import { api } from '../api/client.ts';
import { pathFor } from '../routes/match-route.ts';
import type { UserChangeEffects } from './apply-user-change.ts';
import { authUserPath } from './auth-check.ts';
import { ensureSubscription } from './current-subscription.ts';
import { getSession } from './session-store.ts';
import { forgetSession } from './sign-out.ts';

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
    clearLocal: forgetSession,
    reloadSubscription: () => ensureSubscription(),
  };
}
