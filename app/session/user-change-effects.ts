import type { Lang } from '#shared/locales.ts';
import { call } from '../api/client.ts';
import { pathFor } from '../routes/match-route.ts';
import type { UserChangeEffects } from './apply-user-change.ts';
import { ensureSubscription } from './current-subscription.ts';
import { authUserCall } from './session-calls.ts';
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
      const { user } = await call(authUserCall(getSession().user?.role));
      return user;
    },
    clearLocal: forgetSession,
    reloadSubscription: () => ensureSubscription(),
  };
}
