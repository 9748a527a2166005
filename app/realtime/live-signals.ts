import type { FleetServerState } from '#shared/contracts/realtime.ts';

// What the live events tell open screens, without the realtime code knowing the screens: the
// bridge emits a topic, a screen's queries listen (app/api/use-live-refetch.ts). Kept free
// of React and the query library so the bridge's chunk stays small.

/**
 * `vpn`: the user's WireGuard devices changed; `locations`: the VPN locations a customer can
 * pick changed (heard on the fleet's locations channel while a screen wants it).
 */
export type LiveTopic = 'subscription' | 'family' | 'referral' | 'vpn' | 'locations';

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

// Channels besides the user's own, joined only while a screen wants them (the fleet's: a
// customer's location picker, staff's server lists), so most pages join none.

const wanted = new Map<string, number>();
const channelWatchers = new Set<() => void>();

/** Asks for `channel` to be joined; answers the function that lets it go. */
export function wantChannel(channel: string): () => void {
  wanted.set(channel, (wanted.get(channel) ?? 0) + 1);
  if (wanted.get(channel) === 1) for (const watch of channelWatchers) watch();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (wanted.get(channel) ?? 1) - 1;
    if (left > 0) wanted.set(channel, left);
    else {
      wanted.delete(channel);
      for (const watch of channelWatchers) watch();
    }
  };
}

export function wantedChannels(): string[] {
  return [...wanted.keys()];
}

/** Told whenever the wanted channels change (the realtime client joins or leaves). */
export function onWantedChannels(watch: () => void): () => void {
  channelWatchers.add(watch);
  return () => channelWatchers.delete(watch);
}

type ServersListener = (servers: FleetServerState[], removed: number[]) => void;
const serverListeners = new Set<ServersListener>();

/** Servers whose state changed, and servers removed (the fleet's staff channel). */
export function emitFleetServers(servers: FleetServerState[], removed: number[] = []): void {
  for (const listener of serverListeners) listener(servers, removed);
}

export function onFleetServers(listener: ServersListener): () => void {
  serverListeners.add(listener);
  return () => serverListeners.delete(listener);
}
