import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { FleetServerState } from '#shared/contracts/realtime.ts';
import { onFleetServers, wantChannel } from '../realtime/live-signals.ts';

/** Keeps the page in `channel` (the fleet's) while the screen is mounted. */
export function useLiveChannel(channel: string): void {
  useEffect(() => wantChannel(channel), [channel]);
}

/**
 * Staff's server screens: each changed server's state as it arrives, to merge into what the
 * screen shows (no refetch per change: a busy fleet sends them every second).
 */
export function useFleetServers(
  apply: (servers: FleetServerState[], removed: number[]) => void,
): void {
  const latest = useRef(apply);
  latest.current = apply;
  useEffect(() => onFleetServers((servers, removed) => latest.current(servers, removed)), []);
}

/** Merges changed servers' states into every cached list under `queryKey` holding them. */
export function useFleetServersInCache(queryKey: QueryKey): void {
  const client = useQueryClient();
  useFleetServers((servers, removed) => {
    const byId = new Map(servers.map((state) => [state.server_id, state]));
    client.setQueriesData<unknown>({ queryKey }, (data: unknown) => mergeStates(data, byId));
    // A server removed elsewhere leaves the lists (and their counts) only with a new fetch.
    if (removed.length > 0) void client.invalidateQueries({ queryKey });
  });
}

/** Any object with `server_id` inside `data` (a list's items, a country's cities) is updated. */
function mergeStates(data: unknown, states: Map<number, FleetServerState>): unknown {
  if (Array.isArray(data)) return data.map((item) => mergeStates(item, states));
  if (!data || typeof data !== 'object') return data;
  const record = data as Record<string, unknown>;
  const id = record.server_id;
  const state = typeof id === 'number' ? states.get(id) : undefined;
  const merged: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) merged[key] = mergeStates(value, states);
  return state ? { ...merged, ...state } : merged;
}
