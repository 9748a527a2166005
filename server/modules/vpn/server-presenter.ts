import type { AdminServer, AdminServerDetail } from '#shared/contracts/admin/servers.ts';
import { parsePool, serverInterfaceAddress } from '#shared/vpn/addresses.ts';
import type { VpnServerRow } from '../../db/schema/index.ts';

/** A server row with what the lists join to it. */
export interface ServerWithPlace {
  server: VpnServerRow;
  countryCode: string;
  countryName: string;
  city: string;
  devices: number;
}

/** Staff's view of a server: never its token hash nor its report stream. */
export function presentServer({
  server,
  countryCode,
  countryName,
  city,
  devices,
}: ServerWithPlace): AdminServer {
  return {
    server_id: server.id,
    name: server.name,
    country_code: countryCode,
    country_name: countryName,
    city_id: server.cityId,
    city,
    endpoint_host: server.endpointHost,
    endpoint_port: server.endpointPort,
    listen_port: server.listenPort,
    public_key: server.publicKey,
    ipv4_pool: server.ipv4Pool,
    ipv6_pool: server.ipv6Pool,
    dns: server.dns,
    capacity: server.capacity,
    tags: server.tags,
    status: server.status,
    load: server.load,
    devices,
    active_peers: server.activePeers,
    last_seen_at: server.lastSeenAt?.toISOString() ?? null,
    enrolled_at: server.enrolledAt?.toISOString() ?? null,
    agent_version: server.agentVersion,
    token_rotated_at: server.tokenRotatedAt.toISOString(),
    created_at: server.createdAt.toISOString(),
  };
}

/** The interface's own addresses: host 1 of each pool, with the pool's prefix. */
export function interfaceAddresses(server: Pick<VpnServerRow, 'ipv4Pool' | 'ipv6Pool'>): string[] {
  const pools = [parsePool(server.ipv4Pool, 4), parsePool(server.ipv6Pool, 6)];
  return pools.flatMap((pool) => (pool ? [serverInterfaceAddress(pool)] : []));
}

export function presentServerDetail(row: ServerWithPlace, nodeApiUrl: string): AdminServerDetail {
  return {
    ...presentServer(row),
    interface_addresses: interfaceAddresses(row.server),
    node_api_url: nodeApiUrl,
  };
}
