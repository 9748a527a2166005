import type { referralEndpoints } from '#shared/contracts/referral.ts';
import { isStaff } from '#shared/roles.ts';
import { isApiError } from '../api/api-error.ts';
import { call, endpointRef } from '../api/client.ts';
import { loadMessageParts } from '../i18n/i18n.ts';
import { notify, notifyRequestError, REQUEST_ERROR_DURATION_MS } from '../ui/toast.tsx';
import { clearReferralToken, referralToken } from './browser-storage.ts';
import { getSession } from './session-store.ts';

// §2 rule 2 stores a referral link's token; the join itself waits for a signed-in customer
// (referral-watch.ts, in the first bundle, loads this module only then).

// A reference, not the declaration: the first bundle stays free of zod.
const join = endpointRef<typeof referralEndpoints.join>({
  method: 'POST',
  url: '/api/public/v1/referral-program/join',
});

/** Refusals that will not change by trying again: the token is forgotten. */
const DEFINITE = new Set([403, 404, 409, 422]);

let running: Promise<void> | undefined;
/** The user and token tried on this page already: a passing failure is not retried per update. */
let tried: string | undefined;

async function send(token: string): Promise<void> {
  try {
    await call(join, { body: { token } });
    clearReferralToken();
    notify.success('toasts.referral_join');
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (!DEFINITE.has(error.status)) {
      // Offline, the server failing, signed out meanwhile: kept for the next sign-in or load.
      if (error.status !== 401) notifyRequestError(error);
      return;
    }
    clearReferralToken();
    // 404: the program is switched off (§1); nothing to tell.
    if (error.status === 404) return;
    await loadMessageParts(['referral']).catch(() => undefined);
    const key = error.validation.token?.[0] ?? error.messageKey;
    notify.danger(key, { duration: REQUEST_ERROR_DURATION_MS });
  }
}

/**
 * Joins through the stored referral token if a customer is signed in; `again` retries a
 * token that already failed on this page (a link opened anew).
 */
export function joinStoredReferral(options: { again?: boolean } = {}): Promise<void> {
  if (running) return running;
  const user = getSession().user;
  const token = referralToken();
  if (!user || !token) return Promise.resolve();
  // Staff do not take part in the program: the link is simply forgotten.
  if (isStaff(user.role)) {
    clearReferralToken();
    return Promise.resolve();
  }
  const attempt = `${user.id}:${token}`;
  if (attempt === tried && !options.again) return Promise.resolve();
  tried = attempt;
  running = send(token)
    .catch((error: unknown) => console.error(error))
    .finally(() => {
      running = undefined;
    });
  return running;
}
