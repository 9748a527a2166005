import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import {
  type AdminServerDetail,
  type FleetCountry,
  serverEndpoints,
} from '#shared/contracts/admin/servers.ts';
import { MAX_PER_PAGE } from '#shared/contracts/list.ts';
import { FLEET_STAFF_CHANNEL } from '#shared/contracts/realtime.ts';
import type { ServerStatus } from '#shared/vpn/fleet-rules.ts';
import { call } from '../../../api/client.ts';
import {
  useFleetServers,
  useFleetServersInCache,
  useLiveChannel,
} from '../../../api/use-live-channel.ts';
import { useLang } from '../../auth/use-lang.ts';

/**
 * The query keys of the fleet's screens. The lists keep the kit's shape (`['admin', url,
 * query]`, app/features/admin/kit/list-page.tsx), so one prefix reaches every page of them.
 */
export const FLEET_KEYS = {
  servers: ['admin', serverEndpoints.list.url],
  country: ['admin', serverEndpoints.country.url],
  countries: ['admin', serverEndpoints.countries.url],
  cities: ['admin', serverEndpoints.cities.url],
  server: (id: number) => ['admin', serverEndpoints.view.url, id] as const,
  views: ['admin', serverEndpoints.view.url],
} as const;

/**
 * Every servers screen, while mounted: in the fleet's staff channel, each changed server's
 * status, load, devices and last contact merged into what the screen shows (no reload, and
 * no refetch per change: a busy fleet reports every second).
 */
export function useLiveFleet(): void {
  useLiveChannel(FLEET_STAFF_CHANNEL);
  useFleetServersInCache(FLEET_KEYS.servers);
  useFleetServersInCache(FLEET_KEYS.country);
  useFleetServersInCache(FLEET_KEYS.views);
}

/** Countries' counts are fetched again at most this often while servers change state. */
const COUNTS_EVERY_MS = 5_000;

/**
 * The countries' figures (servers, online) are sums the channel does not carry: they are
 * fetched again when a server's status changes (or a server not seen before appears), at most
 * every few seconds, never for a mere change of load.
 */
export function useLiveCountryCounts(): void {
  const client = useQueryClient();
  const known = useRef(new Map<number, ServerStatus>());
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useFleetServers((states) => {
    let changed = false;
    for (const state of states) {
      if (known.current.get(state.server_id) !== state.status) changed = true;
      known.current.set(state.server_id, state.status);
    }
    if (!changed || timer.current) return;
    const refetch = () => {
      timer.current = undefined;
      last.current = Date.now();
      void client.invalidateQueries({ queryKey: FLEET_KEYS.countries });
    };
    timer.current = setTimeout(refetch, Math.max(0, last.current + COUNTS_EVERY_MS - Date.now()));
  });
}

/** After a change of staff's: the lists, country pages and city lists fetch what is true now. */
export function useRefreshFleet() {
  const client = useQueryClient();
  return useCallback(
    () =>
      Promise.all(
        [FLEET_KEYS.servers, FLEET_KEYS.country, FLEET_KEYS.countries, FLEET_KEYS.cities].map(
          (queryKey) => client.invalidateQueries({ queryKey }),
        ),
      ),
    [client],
  );
}

/** One server with its node's set-up facts (interface addresses, node API address). */
export function useServer(id: number | undefined) {
  const lang = useLang();
  return useQuery({
    queryKey: FLEET_KEYS.server(id ?? 0),
    queryFn: ({ signal }) =>
      call(serverEndpoints.view, { query: { server_id: id ?? 0, lang } }, { signal }).then(
        (answer): AdminServerDetail => answer.server,
      ),
    enabled: id !== undefined,
    // Opened again later, the dialog shows what it had and asks anew: the channel carries the
    // state, not the node's key and version.
    staleTime: 0,
  });
}

/**
 * Every country of the fleet (`with_servers`) or of the world (`all`, to add a first server
 * to), named in the page's language and sorted by name: a page at a time is at most 100, so
 * the pages after the first are fetched together.
 */
export function useFleetCountries(scope: 'all' | 'with_servers') {
  const lang = useLang();
  return useQuery({
    queryKey: [...FLEET_KEYS.countries, 'every', scope, lang],
    queryFn: async ({ signal }) => {
      const page = (n: number) =>
        call(
          serverEndpoints.countries,
          { query: { scope, lang, page: n, per_page: MAX_PER_PAGE } },
          { signal },
        );
      const first = await page(1);
      const rest = await Promise.all(
        Array.from({ length: first.controls.last_page - 1 }, (_, i) => page(i + 2)),
      );
      const items: FleetCountry[] = [first, ...rest].flatMap((answer) => answer.items);
      const collator = new Intl.Collator(lang);
      return items.sort((a, b) => collator.compare(a.name, b.name));
    },
    staleTime: 60_000,
  });
}

/** A country's cities, for the city field's suggestions. */
export function useCities(countryCode: string) {
  const valid = /^[A-Z]{2}$/.test(countryCode);
  return useQuery({
    queryKey: [...FLEET_KEYS.cities, countryCode],
    queryFn: ({ signal }) =>
      call(serverEndpoints.cities, { query: { country_code: countryCode } }, { signal }).then(
        (answer) => answer.items,
      ),
    enabled: valid,
    staleTime: 60_000,
  });
}

/** The tags servers have now, the most used first: the tag filter's options. */
export function useFleetTags() {
  return useQuery({
    queryKey: ['admin', serverEndpoints.tags.url],
    queryFn: ({ signal }) => call(serverEndpoints.tags, {}, { signal }),
    staleTime: 60_000,
  });
}
