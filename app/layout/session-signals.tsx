import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { onLogoutElsewhere } from '../session/cross-tab.ts';
import { useSession } from '../session/session-store.ts';
import { signOut } from '../session/sign-out.ts';
import { useRoutePath } from './route-link.tsx';

/**
 * §4 "Logout in one browser tab, or from the browser extension, logs out the other tabs":
 * listened for from the first render of a signed-in page (not with the lazy live-update
 * code), so a signal right after a load is not missed.
 */
export function SessionSignals() {
  const signedIn = useSession((session) => session.user !== null);
  const navigate = useNavigate();
  const signinPath = useRoutePath('signin');
  useEffect(() => {
    if (!signedIn) return;
    return onLogoutElsewhere((fromExtension) => {
      // The extension asks this page to end the session; a tab says it has ended already.
      void signOut(() => navigate(signinPath), { local: !fromExtension });
    });
  }, [signedIn, navigate, signinPath]);
  return null;
}
