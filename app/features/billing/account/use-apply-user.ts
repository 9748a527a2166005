import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { AuthUser } from '#shared/contracts/auth-user.ts';
import { applyUserChange } from '../../../session/apply-user-change.ts';
import { storeUser } from '../../../session/browser-storage.ts';
import { userChangeEffects } from '../../../session/user-change-effects.ts';
import { useLang } from '../../auth/use-lang.ts';

/**
 * Takes the user a billing call answered (set-source-as-default) through the §4 user-change
 * reactions, as the account screens do: a new default source is stored (reaction 2).
 */
export function useApplyUser() {
  const navigate = useNavigate();
  const lang = useLang();
  return useCallback(
    (next: AuthUser) => {
      storeUser(next);
      return applyUserChange(next, userChangeEffects(navigate, lang));
    },
    [navigate, lang],
  );
}
