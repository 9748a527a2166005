import type { VpnDevice } from '#shared/contracts/vpn.ts';
import { endpointText, hostRoute, parsePool } from '#shared/vpn/addresses.ts';
import type { ConfigParts } from '#shared/vpn/wireguard-config.ts';
import { DEFAULT_KEEPALIVE, FULL_TUNNEL } from '#shared/vpn/wireguard-config.ts';
import type { VpnDeviceRow, VpnServerRow } from '../../db/schema/index.ts';

/** A device with the server it is placed on, as the device queries join them. */
export interface DeviceWithServer {
  device: VpnDeviceRow;
  server: VpnServerRow | null;
  countryCode: string | null;
  countryName: string | null;
  city: string | null;
}

/** The device's tunnel addresses: its host number in each of its server's pools. */
export function deviceAddresses(
  server: Pick<VpnServerRow, 'ipv4Pool' | 'ipv6Pool'> | null,
  host: number | null,
): string[] {
  if (!server || host === null) return [];
  const pools = [parsePool(server.ipv4Pool, 4), parsePool(server.ipv6Pool, 6)];
  return pools.flatMap((pool) => (pool ? [hostRoute(pool, host)] : []));
}

export function presentDevice(row: DeviceWithServer): VpnDevice {
  const { device, server } = row;
  return {
    device_id: device.id,
    name: device.name,
    public_key: device.publicKey,
    location: device.location,
    server:
      server && row.countryCode
        ? {
            name: server.name,
            country_code: row.countryCode,
            country_name: row.countryName ?? row.countryCode,
            city: row.city ?? '',
            status: server.status,
          }
        : null,
    address: deviceAddresses(server, device.host),
    enabled: device.blockedBy === null,
    blocked_by: device.blockedBy,
    rx_bytes: device.rxBytes,
    tx_bytes: device.txBytes,
    latest_handshake_at: device.latestHandshakeAt?.toISOString() ?? null,
    config_changed_at: device.configChangedAt?.toISOString() ?? null,
    created_at: device.createdAt.toISOString(),
  };
}

/**
 * Everything of the device's `.conf` but its private key; null while it has no server, or
 * its server has no key yet (its node has not enrolled).
 */
export function configPartsOf(row: DeviceWithServer): ConfigParts | null {
  const { device, server } = row;
  if (!server?.publicKey || device.host === null) return null;
  return {
    address: deviceAddresses(server, device.host),
    dns: server.dns,
    peer: {
      public_key: server.publicKey,
      endpoint: endpointText(server.endpointHost, server.endpointPort),
      allowed_ips: [...FULL_TUNNEL],
      persistent_keepalive: DEFAULT_KEEPALIVE,
    },
  };
}
