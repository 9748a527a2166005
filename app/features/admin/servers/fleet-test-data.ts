import type {
  AdminServer,
  AdminServerDetail,
  FleetCity,
  FleetCountry,
} from '#shared/contracts/admin/servers.ts';

// Answers of the fleet's endpoints for the screens' component tests, every field filled; each
// test overrides what it is about. Data only: the tests stub fetch themselves.

export function adminServer(overrides: Partial<AdminServer> = {}): AdminServer {
  const id = overrides.server_id ?? 1;
  return {
    server_id: id,
    name: `de-frankfurt-${id}`,
    country_code: 'DE',
    country_name: 'Germany',
    city_id: 10,
    city: 'Frankfurt',
    endpoint_host: `de-frankfurt-${id}.vpn.test`,
    endpoint_port: 51820,
    listen_port: null,
    public_key: 'kPLUPYBjSDgnJoDmsKOPpaAF0pHKmfQ2XHkzQvMIbVA=',
    ipv4_pool: '10.8.0.0/16',
    ipv6_pool: 'fd42:42:42::/64',
    dns: ['1.1.1.1', '2606:4700:4700::1111'],
    capacity: 500,
    tags: ['streaming'],
    status: 'online',
    load: 47,
    devices: 12,
    active_peers: 10,
    last_seen_at: new Date(Date.now() - 20_000).toISOString(),
    enrolled_at: '2026-10-01T10:00:00.000Z',
    agent_version: '0.1.0',
    token_rotated_at: '2026-10-01T09:00:00.000Z',
    created_at: '2026-10-01T09:00:00.000Z',
    ...overrides,
  };
}

export function serverDetail(overrides: Partial<AdminServerDetail> = {}): AdminServerDetail {
  return {
    ...adminServer(overrides),
    interface_addresses: ['10.8.0.1/16', 'fd42:42:42::1/64'],
    node_api_url: 'https://vpn.example.com',
    ...overrides,
  };
}

export function fleetCountry(overrides: Partial<FleetCountry> = {}): FleetCountry {
  return {
    country_code: 'DE',
    name: 'Germany',
    servers: 4,
    online: 3,
    cities: 3,
    visible: true,
    sort: 0,
    ...overrides,
  };
}

export function fleetCity(overrides: Partial<FleetCity> = {}): FleetCity {
  return { city_id: 10, name: 'Frankfurt', country_code: 'DE', servers: 2, ...overrides };
}

/** A list answer holding `items`, one page. */
export function listOf<T>(items: T[], perPage = 20) {
  return {
    items,
    controls: { page: 1, per_page: perPage, total: items.length, last_page: 1 },
  };
}
