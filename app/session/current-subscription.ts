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

const listeners = new Set<() => void>();

/**
 * The subscription changed (a live `Users\SubscriptionUpdated`, or an action of this page):
 * fetched again for the guards and menus, and every billing screen on show refreshes.
 */
export async function refreshSubscription(): Promise<SubscriptionState> {
  const { user } = getSession();
  if (!user) return NONE;
  const response = await call(currentSubscriptionCall);
  const loaded: SubscriptionState = {
    current: response.subscription,
    lastInvoiceFinalizing: response.last_invoice_finalizing,
  };
  if (getSession().user === user) updateSession({ subscription: loaded });
  for (const listener of listeners) listener();
  return loaded;
}

/** Runs `listener` after each refresh of the subscription; answers how to stop. */
export function onSubscriptionRefreshed(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
