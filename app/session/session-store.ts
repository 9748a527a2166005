import { useSyncExternalStore } from 'react';
import type { AuthUser } from '#shared/contracts/auth-user.ts';
import type { SubscriptionState } from '../guards/access-rules.ts';

// §3 Application store: the signed-in user, the current subscription, the access-pages
// list and the overlay flags. Plain module state with subscribers: the router's loaders
// read it outside React, components through useSession.
export interface SessionState {
  user: AuthUser | null;
  /** Undefined until loaded; routes with awaitSubscription load it first. */
  subscription: SubscriptionState | undefined;
  accessPages: readonly string[];
  logoutOverlay: boolean;
  redirectOverlay: boolean;
}

const initial: SessionState = {
  user: null,
  subscription: undefined,
  accessPages: [],
  logoutOverlay: false,
  redirectOverlay: false,
};

let state = initial;
const listeners = new Set<() => void>();

export function getSession(): SessionState {
  return state;
}

export function updateSession(patch: Partial<SessionState>): void {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

/** §4 reaction 1: everything but the overlay goes back to its first value. */
export function resetSession(): void {
  updateSession({ ...initial, logoutOverlay: state.logoutOverlay });
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
const subscribe = subscribeSession;

export function useSession<T>(select: (session: SessionState) => T): T {
  return useSyncExternalStore(subscribe, () => select(state));
}
