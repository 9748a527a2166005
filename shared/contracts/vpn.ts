import { z } from 'zod';
import { recordId, recordIdNumber } from '../validation/record-id.ts';
import { requiredString } from '../validation/required.ts';
import { SERVER_STATUSES } from '../vpn/fleet-rules.ts';
import { endpoint } from './endpoint.ts';
import { wireGuardKey } from './vpn-node.ts';

// §2 "download": the customer's WireGuard devices. The key pair is made in the browser and
// only the public key is sent, so the server can give back everything of a `.conf` but the
// private key; the browser writes the file. The entitlement ledger decides access; the plan
// decides how many devices; staff's traffic limit (§6) counts over the billing period.

const invalid = { error: 'input_errors.field_is_invalid' };
const isoDate = z.iso.datetime({ offset: true });

/** Message keys these calls answer with (the customer's texts, vpn.json). */
export const VPN_MESSAGES = {
  publicKeyInvalid: 'vpn.errors.public_key_invalid',
  publicKeyTaken: 'vpn.errors.public_key_taken',
  deviceLimit: 'vpn.errors.device_limit',
  noAccess: 'vpn.errors.no_access',
  locationUnavailable: 'vpn.errors.location_unavailable',
  nameTaken: 'vpn.errors.name_taken',
} as const;

/** A country code, or `fastest`: the least loaded server of the nearest country. */
export const deviceLocation = z
  .string(invalid)
  .trim()
  .regex(/^(fastest|[A-Za-z]{2})$/, { error: VPN_MESSAGES.locationUnavailable })
  .transform((value) => (value === 'fastest' ? value : value.toUpperCase()));

/** Why a device's peer is not on its server now. */
export const DEVICE_BLOCKS = [
  /** The ledger gives no access (expired, refunded, a family seat ended, deactivated). */
  'no_access',
  /** Staff blocked the account. */
  'blocked',
  /** The billing period's traffic limit is reached. */
  'traffic_limit',
  /** More devices than the plan allows: the newest wait until one is removed. */
  'device_limit',
  /** Its server was removed and no other in the country could take it. */
  'no_server',
] as const;
export type DeviceBlock = (typeof DEVICE_BLOCKS)[number];

export const vpnDevice = z
  .object({
    device_id: z.number().int(),
    name: z.string(),
    public_key: z.string(),
    /** What the customer chose. */
    location: z.string(),
    server: z
      .object({
        name: z.string(),
        country_code: z.string(),
        country_name: z.string(),
        city: z.string(),
        status: z.enum(SERVER_STATUSES),
      })
      .nullable(),
    /** The device's tunnel addresses. */
    address: z.array(z.string()),
    /** Its peer is on its server; otherwise `blocked_by` says why not. */
    enabled: z.boolean(),
    blocked_by: z.enum(DEVICE_BLOCKS).nullable(),
    rx_bytes: z.number(),
    tx_bytes: z.number(),
    latest_handshake_at: isoDate.nullable(),
    /**
     * When its server or the server's key changed since its configuration was made: the
     * device needs the new configuration (a new key gives a complete one).
     */
    config_changed_at: isoDate.nullable(),
    created_at: isoDate,
  })
  .meta({ id: 'VpnDevice' });
export type VpnDevice = z.infer<typeof vpnDevice>;

/** The traffic of the billing period against staff's limit. */
export const vpnUsage = z
  .object({
    period_start: isoDate,
    /**
     * When the count resets: the renewal day (month-long windows from the subscription's
     * start), or the first of next month without a subscription.
     */
    period_end: isoDate,
    used_bytes: z.number(),
    /** Null: no limit. */
    limit_bytes: z.number().nullable(),
    limit_reached: z.boolean(),
  })
  .meta({ id: 'VpnUsage' });
export type VpnUsage = z.infer<typeof vpnUsage>;

export const devicesResponse = z
  .object({
    items: z.array(vpnDevice),
    /** Devices the plan allows. */
    device_limit: z.number().int(),
    /** The ledger's answer: may this person connect now. */
    access: z.object({ active: z.boolean(), until: isoDate.nullable(), blocked: z.boolean() }),
    usage: vpnUsage,
  })
  .meta({ id: 'VpnDevices' });
export type DevicesResponse = z.infer<typeof devicesResponse>;

/** Everything of the `.conf` but the private key (shared/vpn/wireguard-config.ts). */
export const configParts = z
  .object({
    address: z.array(z.string()),
    dns: z.array(z.string()),
    peer: z.object({
      public_key: z.string(),
      endpoint: z.string(),
      allowed_ips: z.array(z.string()),
      persistent_keepalive: z.number().int(),
    }),
  })
  .meta({ id: 'WireGuardConfigParts' });

export const deviceWithConfig = z.object({
  device: vpnDevice,
  /** Null while the device has no server to connect to. */
  config: configParts.nullable(),
});
export type DeviceWithConfig = z.infer<typeof deviceWithConfig>;

/** A location a customer may pick: a visible country with a server taking devices. */
export const vpnLocation = z
  .object({
    country_code: z.string(),
    name: z.string(),
    cities: z.array(z.string()),
    /** Servers taking new devices now. */
    servers: z.number().int(),
    /** The lightest of them, 0–100. */
    load: z.number().int(),
  })
  .meta({ id: 'VpnLocation' });
export type VpnLocation = z.infer<typeof vpnLocation>;

export const locationsResponse = z.object({
  items: z.array(vpnLocation),
  /** Where `fastest` would place a device now; null when no server takes devices. */
  fastest: z.object({ country_code: z.string(), name: z.string() }).nullable(),
});
export type LocationsResponse = z.infer<typeof locationsResponse>;

export const deviceName = requiredString(64);

export const deviceCreateRequest = z.object({
  name: deviceName,
  location: deviceLocation,
  public_key: wireGuardKey,
});
export type DeviceCreateRequest = z.infer<typeof deviceCreateRequest>;

const deviceId = z.object({ device_id: recordIdNumber });

export const deviceRenameRequest = deviceId.extend({ name: deviceName });
/** With a new key the answer is a complete new configuration; without, the device is told. */
export const deviceMoveRequest = deviceId.extend({
  location: deviceLocation,
  public_key: wireGuardKey.optional(),
});
export const deviceRekeyRequest = deviceId.extend({ public_key: wireGuardKey });

const account = { base: 'account', access: 'active', tag: 'vpn' } as const;

export const vpnEndpoints = {
  locations: endpoint({
    ...account,
    appScope: 'vpn',
    method: 'GET',
    path: '/vpn/locations',
    summary: 'Countries a device can be placed in, and where "fastest" would go',
    query: z.object({ lang: z.string(invalid).max(5, invalid).optional() }),
    response: locationsResponse,
  }),
  devices: endpoint({
    ...account,
    appScope: 'vpn',
    method: 'GET',
    path: '/vpn/devices',
    summary: "The customer's WireGuard devices, device limit, access and traffic",
    query: z.object({ lang: z.string(invalid).max(5, invalid).optional() }),
    response: devicesResponse,
  }),
  create: endpoint({
    ...account,
    appScope: 'vpn',
    method: 'POST',
    path: '/vpn/devices/create',
    summary: 'Add a device by its public key; answers its configuration but the private key',
    body: deviceCreateRequest,
    response: deviceWithConfig,
    status: 201,
  }),
  config: endpoint({
    ...account,
    appScope: 'vpn',
    method: 'GET',
    path: '/vpn/devices/config',
    summary: "A device's configuration now, but the private key",
    query: z.object({ device_id: recordId }),
    response: deviceWithConfig,
  }),
  rename: endpoint({
    ...account,
    method: 'POST',
    path: '/vpn/devices/rename',
    summary: 'Rename a device',
    body: deviceRenameRequest,
    response: z.object({ device: vpnDevice }),
  }),
  move: endpoint({
    ...account,
    method: 'POST',
    path: '/vpn/devices/move',
    summary: 'Move a device to another location; answers its new configuration',
    body: deviceMoveRequest,
    response: deviceWithConfig,
  }),
  rekey: endpoint({
    ...account,
    method: 'POST',
    path: '/vpn/devices/rekey',
    summary: "Replace a device's key in one step (the old one stops working)",
    body: deviceRekeyRequest,
    response: deviceWithConfig,
  }),
  delete: endpoint({
    ...account,
    appScope: 'vpn',
    method: 'POST',
    path: '/vpn/devices/delete',
    summary: 'Remove a device: its peer leaves its server',
    body: deviceId,
    response: z.object({ success: z.literal(true) }),
  }),
} as const;

/** React-query key of the devices list; live events refetch it. */
export const VPN_DEVICES_QUERY_KEY = ['vpn', 'devices'] as const;
