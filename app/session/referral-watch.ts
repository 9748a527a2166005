import { referralToken } from './browser-storage.ts';
import { getSession, subscribeSession } from './session-store.ts';

// Whatever signs the user in (password, sign-up, social, e-mail verification, a reload with
// a live session) ends in the session store, so the referral join follows the store: once a
// user is set and a token is waiting, the joining code (referral-join.ts) loads and sends it
// once. A link opened while signed in stores a token without changing the store, so the
// router asks again right after storing it. Only this watch is in the first bundle.

/** Joins through the stored referral token when someone is signed in and one is waiting. */
export function joinStoredReferralSoon(options: { again?: boolean } = {}): void {
  if (!getSession().user || !referralToken()) return;
  import('./referral-join.ts')
    .then(({ joinStoredReferral }) => joinStoredReferral(options))
    .catch((error: unknown) => console.error('Referral join failed', error));
}

let lastUserId: number | undefined;
subscribeSession(() => {
  const id = getSession().user?.id;
  if (id === lastUserId) return;
  lastUserId = id;
  if (id !== undefined) joinStoredReferralSoon();
});
