import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { FLEET_LOCATIONS_CHANNEL } from '#shared/contracts/realtime.ts';
import {
  type DevicesResponse,
  type DeviceWithConfig,
  vpnEndpoints as e,
  VPN_DEVICES_QUERY_KEY,
  type VpnDevice,
} from '#shared/contracts/vpn.ts';
import { call } from '../../api/client.ts';
import { useLiveChannel } from '../../api/use-live-channel.ts';
import { useLiveRefetch } from '../../api/use-live-refetch.ts';
import { useLang } from '../auth/use-lang.ts';
import { generateKeyPair } from './wireguard-keys.ts';

// The customer's WireGuard devices (§2 download), read by the download page, the security
// page's devices panel and the dashboard's VPN card from one cache entry per language.

export const VPN_LOCATIONS_QUERY_KEY = ['vpn', 'locations'] as const;

/**
 * The devices, the plan's device limit, access and the period's traffic; fetched again when
 * they change elsewhere (another tab, staff, the traffic sweep) or access may have changed
 * (the subscription, a family seat).
 */
export function useVpnDevices({ enabled = true }: { enabled?: boolean } = {}) {
  const lang = useLang();
  useLiveRefetch(['vpn', 'subscription', 'family'], VPN_DEVICES_QUERY_KEY);
  return useQuery({
    queryKey: [...VPN_DEVICES_QUERY_KEY, lang],
    queryFn: ({ signal }) => call(e.devices, { query: { lang } }, { signal }),
    enabled,
  });
}

/**
 * The locations a device can go to, for a picker that is open: its screen joins the fleet's
 * locations channel meanwhile and fetches them again when they change.
 */
export function useVpnLocations() {
  const lang = useLang();
  useLiveChannel(FLEET_LOCATIONS_CHANNEL);
  useLiveRefetch(['locations'], VPN_LOCATIONS_QUERY_KEY);
  return useQuery({
    queryKey: [...VPN_LOCATIONS_QUERY_KEY, lang],
    queryFn: ({ signal }) => call(e.locations, { query: { lang } }, { signal }),
  });
}

/** A device answered by a change, put into the cached list (or taken out) before a refetch. */
export function useVpnCache() {
  const client = useQueryClient();
  const lang = useLang();
  const key = [...VPN_DEVICES_QUERY_KEY, lang];
  const edit = (change: (items: VpnDevice[]) => VpnDevice[]) =>
    client.setQueryData<DevicesResponse>(key, (data) =>
      data ? { ...data, items: change(data.items) } : data,
    );
  const put = (device: VpnDevice) =>
    edit((items) =>
      items.some((item) => item.device_id === device.device_id)
        ? items.map((item) => (item.device_id === device.device_id ? device : item))
        : [...items, device],
    );
  const drop = (deviceId: number) =>
    edit((items) => items.filter((item) => item.device_id !== deviceId));
  const refresh = () => client.invalidateQueries({ queryKey: VPN_DEVICES_QUERY_KEY });
  return { put, drop, refresh };
}

/** A configuration the page can show: the server's parts and the private key made here. */
export interface ShownConfig extends DeviceWithConfig {
  privateKey: string;
}

/**
 * The calls that give a device a new key: the pair is made here and only its public key
 * leaves the browser; the answer comes back with the private key beside it, for the page to
 * show once.
 */
export function useKeyedCalls() {
  const withNewKey = useCallback(
    async (send: (publicKey: string) => Promise<DeviceWithConfig>): Promise<ShownConfig> => {
      const pair = await generateKeyPair();
      const answer = await send(pair.publicKey);
      return { ...answer, privateKey: pair.privateKey };
    },
    [],
  );
  return {
    create: (name: string, location: string) =>
      withNewKey((public_key) => call(e.create, { body: { name, location, public_key } })),
    move: (device_id: number, location: string) =>
      withNewKey((public_key) => call(e.move, { body: { device_id, location, public_key } })),
    rekey: (device_id: number) =>
      withNewKey((public_key) => call(e.rekey, { body: { device_id, public_key } })),
  };
}

export const renameDevice = (device_id: number, name: string) =>
  call(e.rename, { body: { device_id, name } });

export const deleteDevice = (device_id: number) => call(e.delete, { body: { device_id } });
