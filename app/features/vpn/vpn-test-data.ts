import type {
  DevicesResponse,
  DeviceWithConfig,
  LocationsResponse,
  VpnDevice,
} from '#shared/contracts/vpn.ts';

// Answers of the VPN calls, every field filled; each test overrides what it is about. Data
// only: the tests stub fetch themselves.

export const PERIOD_START = '2026-11-01T00:00:00.000Z';
export const PERIOD_END = '2026-12-01T00:00:00.000Z';
export const GB = 1_000_000_000;

export function vpnDevice(overrides: Partial<VpnDevice> = {}): VpnDevice {
  return {
    device_id: 1,
    name: 'Laptop',
    public_key: 'jSww329FFHAJvRxIxhgbxjag/OtGttW74iO+mxXOiGQ=',
    location: 'NL',
    server: {
      name: 'nl-amsterdam-1',
      country_code: 'NL',
      country_name: 'Netherlands',
      city: 'Amsterdam',
      status: 'online',
    },
    address: ['10.8.0.2/32', 'fd42:42:42::2/128'],
    enabled: true,
    blocked_by: null,
    rx_bytes: 3_200_000_000,
    tx_bytes: 14_600_000_000,
    latest_handshake_at: new Date(Date.now() - 120_000).toISOString(),
    config_changed_at: null,
    created_at: '2026-11-02T10:00:00.000Z',
    ...overrides,
  };
}

export function devicesAnswer(overrides: Partial<DevicesResponse> = {}): DevicesResponse {
  return {
    items: [],
    device_limit: 10,
    access: { active: true, until: '2027-11-01T00:00:00.000Z', blocked: false },
    usage: {
      period_start: PERIOD_START,
      period_end: PERIOD_END,
      used_bytes: 0,
      limit_bytes: 100 * GB,
      limit_reached: false,
    },
    ...overrides,
  };
}

export function locationsAnswer(overrides: Partial<LocationsResponse> = {}): LocationsResponse {
  return {
    items: [
      {
        country_code: 'DE',
        name: 'Germany',
        cities: ['Berlin', 'Frankfurt'],
        servers: 3,
        load: 33,
      },
      { country_code: 'NL', name: 'Netherlands', cities: ['Amsterdam'], servers: 2, load: 21 },
      { country_code: 'US', name: 'United States', cities: ['New York'], servers: 2, load: 40 },
    ],
    fastest: { country_code: 'NL', name: 'Netherlands' },
    ...overrides,
  };
}

/** The server's parts of a `.conf` for a device there. */
export function configParts(): NonNullable<DeviceWithConfig['config']> {
  return {
    address: ['10.8.0.7/32', 'fd42:42:42::7/128'],
    dns: ['10.8.0.1', 'fd42:42:42::1'],
    peer: {
      public_key: 'hS7/tAl8F3/ZfdnUKSsAAgcatr3l2rI1bi7SWidIFFU=',
      endpoint: 'de-berlin-1.vpn.example.com:51820',
      allowed_ips: ['0.0.0.0/0', '::/0'],
      persistent_keepalive: 25,
    },
  };
}
