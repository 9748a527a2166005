import { useCallback, useMemo, useRef } from 'react';
import { useNavigate } from 'react-router';
import type { AuthUser } from '#shared/contracts/auth-user.ts';
import { isStaff } from '#shared/roles.ts';
import type { RouteName } from '../../routes/route-table.ts';
import { applyUserChange } from '../../session/apply-user-change.ts';
import { storeUser } from '../../session/browser-storage.ts';
import { useSession } from '../../session/session-store.ts';
import { userChangeEffects } from '../../session/user-change-effects.ts';
import { useLang } from '../auth/use-lang.ts';
import { type AccountApi, accountApi } from './account-api.ts';

export interface AccountContext {
  user: AuthUser;
  api: AccountApi;
  /** Route names of this user's account screens: `account.*`, or `admin.account.*` for staff. */
  routes: { profile: RouteName; security: RouteName; notifications: RouteName };
  /**
   * Takes the user an account call answered (null: the call ended this session), running
   * the §4 user-change reactions.
   */
  applyUser: (user: AuthUser | null) => Promise<unknown>;
}

/** The signed-in user's account: only used under routes the guard opens to signed-in users. */
export function useAccount(): AccountContext {
  const current = useSession((session) => session.user);
  // At sign-out the store empties a moment before the page leaves for sign-in (another tab,
  // a live event): the last user is shown until then, rather than an error.
  const last = useRef(current);
  if (current) last.current = current;
  const user = current ?? last.current;
  if (!user) throw new Error('useAccount needs a signed-in user');
  const navigate = useNavigate();
  const lang = useLang();
  const role = user.role;
  const api = useMemo(() => accountApi(role), [role]);
  const staff = isStaff(role);
  const routes = useMemo(
    () =>
      staff
        ? ({
            profile: 'admin.account.profile',
            security: 'admin.account.security',
            notifications: 'admin.account.notifications',
          } as const)
        : ({
            profile: 'account.profile',
            security: 'account.security',
            notifications: 'account.notifications',
          } as const),
    [staff],
  );
  const applyUser = useCallback(
    (next: AuthUser | null) => {
      storeUser(next);
      return applyUserChange(next, userChangeEffects(navigate, lang));
    },
    [navigate, lang],
  );
  return { user, api, routes, applyUser };
}
