import { call } from '../api/client.ts';
import type { SubscriptionState } from '../guards/access-rules.ts';
import { currentSubscriptionCall } from './session-calls.ts';
import { getSession, updateSession } from './session-store.ts';

const NONE: SubscriptionState = { current: null, lastInvoiceFinalizing: false };

/**
 * §2 "For billing membership, upgrade, reactivate, bonus-upgrade and order, the current
 * subscription is awaited before the route opens; other routes fetch it when they ask."
 * Visitors have none; a signed-in user's is fetched once and kept until it changes.
 */
export async function ensureSubscription(): Promise<SubscriptionState> {
  const { user, subscription } = getSession();
  if (!user) return NONE;
  if (subscription) return subscription;
  const response = await call(currentSubscriptionCall);
  const loaded: SubscriptionState = {
    current: response.subscription,
    lastInvoiceFinalizing: response.last_invoice_finalizing,
  };
  // The user may have signed out while the request was in flight.
  if (getSession().user === user) updateSession({ subscription: loaded });
  return loaded;
}
