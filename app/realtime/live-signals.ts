// What the live events tell open screens, without the realtime code knowing the screens: the
// bridge emits a topic, a screen's queries listen (app/api/use-live-refetch.ts). Kept free
// of React and the query library so the bridge's chunk stays small.

export type LiveTopic = 'subscription' | 'family' | 'referral';

const listeners = new Map<LiveTopic, Set<() => void>>();

export function emitLive(topic: LiveTopic): void {
  for (const listener of listeners.get(topic) ?? []) listener();
}

/** Calls `listener` on each event of the topic; answers the function that stops it. */
export function onLive(topic: LiveTopic, listener: () => void): () => void {
  let set = listeners.get(topic);
  if (!set) {
    set = new Set();
    listeners.set(topic, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}
