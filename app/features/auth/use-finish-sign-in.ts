import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { AuthUser } from '#shared/contracts/auth-user.ts';
import { afterLogin } from '../../guards/after-login.ts';
import { startSession } from './auth-session.ts';
import { useLang } from './use-lang.ts';

/**
 * The end of every sign-in (password, second factor, social): the session starts here and
 * the user goes where the sign-in link asked (§2 After login).
 */
export function useFinishSignIn(): (user: AuthUser) => Promise<void> {
  const lang = useLang();
  const location = useLocation();
  const navigate = useNavigate();
  return useCallback(
    async (user: AuthUser) => {
      startSession(user);
      const next = afterLogin(
        new URLSearchParams(location.search),
        user.role,
        lang,
        window.location.origin,
      );
      if (next.kind === 'url') window.location.assign(next.href);
      else await navigate(next.to, { replace: true });
    },
    [lang, location.search, navigate],
  );
}
