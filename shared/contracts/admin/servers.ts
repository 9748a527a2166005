import { z } from 'zod';
import { recordId, recordIdNumber } from '../../validation/record-id.ts';
import { requiredString } from '../../validation/required.ts';
import { isEndpointHost, isResolverAddress, parsePool } from '../../vpn/addresses.ts';
import { SERVER_STATUSES } from '../../vpn/fleet-rules.ts';
import { endpoint } from '../endpoint.ts';
import { listResponse, pagingQuery, searchFilter, sortQuery } from '../list.ts';

// §2 /admin/servers (countries, all-servers, servers-list, countries/{country_code}) and §7
// dashboard /servers: the VPN fleet, admin only. A server's WireGuard public key comes from
// its node when it enrolls, never from a form; its enrollment token is shown once.

const invalid = { error: 'input_errors.field_is_invalid' };
const isoDate = z.iso.datetime({ offset: true });

/** Message keys these calls answer with (staff's own texts, admin-servers.json). */
export const SERVER_MESSAGES = {
  nameTaken: 'staff_servers.errors.name_taken',
  hostInvalid: 'staff_servers.errors.host_invalid',
  portInvalid: 'staff_servers.errors.port_invalid',
  ipv4PoolInvalid: 'staff_servers.errors.ipv4_pool_invalid',
  ipv6PoolInvalid: 'staff_servers.errors.ipv6_pool_invalid',
  dnsInvalid: 'staff_servers.errors.dns_invalid',
  tagInvalid: 'staff_servers.errors.tag_invalid',
  countryUnknown: 'staff_servers.errors.country_unknown',
  cityElsewhere: 'staff_servers.errors.city_in_other_country',
  /** Smaller than the devices it holds, or a pool too small for them. */
  capacityBelowDevices: 'staff_servers.errors.capacity_below_devices',
  poolInUse: 'staff_servers.errors.pool_in_use',
} as const;

const M = SERVER_MESSAGES;

export const countryCode = z
  .string(invalid)
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, { error: M.countryUnknown });

const port = z
  .number({ error: M.portInvalid })
  .int({ error: M.portInvalid })
  .min(1, { error: M.portInvalid })
  .max(65_535, { error: M.portInvalid });

const pool = (family: 4 | 6) =>
  z
    .string(invalid)
    .trim()
    .refine((text) => parsePool(text, family) !== null, {
      error: family === 4 ? M.ipv4PoolInvalid : M.ipv6PoolInvalid,
    });

export const SERVER_TAG = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** Every field staff set on a server (the key and the status are never typed). */
export const serverFields = z.object({
  name: requiredString(64),
  country_code: countryCode,
  /** A city of the country by name: found, or added to the country's cities. */
  city: requiredString(100),
  /** The id of a city already known, chosen from the list: it must be in the country. */
  city_id: recordIdNumber.nullable().default(null),
  endpoint_host: requiredString(253).refine(isEndpointHost, { error: M.hostInvalid }),
  endpoint_port: port,
  /** The UDP port WireGuard listens on, when a NAT maps the endpoint's port to another. */
  listen_port: port.nullable().default(null),
  ipv4_pool: pool(4).default('10.8.0.0/16'),
  ipv6_pool: pool(6).default('fd42:42:42::/64'),
  dns: z
    .array(z.string(invalid).trim().refine(isResolverAddress, { error: M.dnsInvalid }), invalid)
    .min(1, invalid)
    .max(4, invalid)
    .default(['1.1.1.1', '2606:4700:4700::1111']),
  /** The most devices (WireGuard peers) it takes. */
  capacity: z.coerce
    .number(invalid)
    .int(invalid)
    .min(1, invalid)
    .max(100_000, invalid)
    .default(250),
  tags: z
    .array(z.string(invalid).trim().toLowerCase().regex(SERVER_TAG, { error: M.tagInvalid }))
    .max(10, invalid)
    .default([]),
});
export type ServerFields = z.output<typeof serverFields>;
export type ServerFieldsInput = z.input<typeof serverFields>;

export const adminServer = z
  .object({
    server_id: z.number().int(),
    name: z.string(),
    country_code: z.string(),
    country_name: z.string(),
    city_id: z.number().int(),
    city: z.string(),
    endpoint_host: z.string(),
    endpoint_port: z.number().int(),
    listen_port: z.number().int().nullable(),
    /** Sent by the node when it enrolls; null until then. */
    public_key: z.string().nullable(),
    ipv4_pool: z.string(),
    ipv6_pool: z.string(),
    dns: z.array(z.string()),
    capacity: z.number().int(),
    tags: z.array(z.string()),
    status: z.enum(SERVER_STATUSES),
    /** 0–100: the busier of its CPU and its devices against its capacity. */
    load: z.number().int(),
    /** Devices placed on it, and of them those with a recent handshake. */
    devices: z.number().int(),
    active_peers: z.number().int(),
    last_seen_at: isoDate.nullable(),
    enrolled_at: isoDate.nullable(),
    agent_version: z.string().nullable(),
    token_rotated_at: isoDate,
    created_at: isoDate,
  })
  .meta({ id: 'AdminServer' });
export type AdminServer = z.infer<typeof adminServer>;

/** A server's page: the server, and how to start its node. */
export const adminServerDetail = adminServer
  .extend({
    /** The interface's own addresses, for setting the node's interface up. */
    interface_addresses: z.array(z.string()),
    /** The URL nodes reach the API on. */
    node_api_url: z.string(),
  })
  .meta({ id: 'AdminServerDetail' });
export type AdminServerDetail = z.infer<typeof adminServerDetail>;

export const serverResponse = z.object({ server: adminServerDetail });

/** The token is in this answer only: it is stored hashed and shown once. */
export const serverWithTokenResponse = z.object({
  server: adminServerDetail,
  enrollment_token: z.string(),
});
export type ServerWithTokenResponse = z.infer<typeof serverWithTokenResponse>;

export const SERVER_SORTS = [
  'name',
  'country',
  'status',
  'load',
  'last_seen_at',
  'created_at',
] as const;

/** The language country names are given in (the page's); English without one. */
const lang = z.string(invalid).max(5, invalid).optional();

export const serversQuery = pagingQuery.merge(sortQuery(SERVER_SORTS, 'name', 'asc')).extend({
  lang,
  search: searchFilter,
  country_code: countryCode.optional(),
  status: z.enum(SERVER_STATUSES, invalid).optional(),
  tag: z.string(invalid).trim().toLowerCase().max(32, invalid).optional(),
});
export type ServersQuery = z.infer<typeof serversQuery>;

/** A country as the fleet sees it: its servers, how many answer, whether customers see it. */
export const fleetCountry = z
  .object({
    country_code: z.string(),
    name: z.string(),
    servers: z.number().int(),
    online: z.number().int(),
    cities: z.number().int(),
    /** Shown to customers in the location list. */
    visible: z.boolean(),
    /** Position in the customers' list, lowest first (then by name). */
    sort: z.number().int(),
  })
  .meta({ id: 'FleetCountry' });
export type FleetCountry = z.infer<typeof fleetCountry>;

export const FLEET_COUNTRY_SCOPES = ['with_servers', 'all'] as const;

export const fleetCountriesQuery = pagingQuery.extend({
  search: searchFilter,
  /** Countries that have servers (the default), or every country to add one to. */
  scope: z.enum(FLEET_COUNTRY_SCOPES, invalid).default('with_servers'),
  lang,
});
export type FleetCountriesQuery = z.infer<typeof fleetCountriesQuery>;

export const fleetCity = z
  .object({
    city_id: z.number().int(),
    name: z.string(),
    country_code: z.string(),
    servers: z.number().int(),
  })
  .meta({ id: 'FleetCity' });
export type FleetCity = z.infer<typeof fleetCity>;

const byCountry = z.object({ country_code: countryCode, lang });

/** §2 countries/{country_code}: the country, its cities, and their servers. */
export const fleetCountryResponse = z.object({
  country: fleetCountry,
  cities: z.array(fleetCity.extend({ items: z.array(adminServer) })),
});
export type FleetCountryResponse = z.infer<typeof fleetCountryResponse>;

export const serverIdInput = z.object({ server_id: recordIdNumber });

export const serverUpdateRequest = serverFields.extend({ server_id: recordIdNumber });
export type ServerUpdateRequest = z.output<typeof serverUpdateRequest>;

export const countryUpdateRequest = z.object({
  lang,
  country_code: countryCode,
  visible: z.boolean(invalid),
  sort: z.number(invalid).int(invalid).min(-10_000, invalid).max(10_000, invalid),
});
export type CountryUpdateRequest = z.infer<typeof countryUpdateRequest>;

const admin = { base: 'dashboard', access: { permission: 'servers' }, tag: 'servers' } as const;

export const serverEndpoints = {
  list: endpoint({
    ...admin,
    method: 'GET',
    path: '/servers',
    summary: 'Servers: search, filter by country, status and tag, sort, a page at a time',
    query: serversQuery,
    response: listResponse(adminServer),
  }),
  cities: endpoint({
    ...admin,
    method: 'GET',
    path: '/servers/get-cities',
    summary: "A country's cities, with how many servers each has",
    query: z.object({ country_code: countryCode }),
    response: z.object({ items: z.array(fleetCity) }),
  }),
  tags: endpoint({
    ...admin,
    method: 'GET',
    path: '/servers/tags',
    summary: 'Every tag a server has, with how many servers have it',
    response: z.object({
      items: z.array(z.object({ tag: z.string(), servers: z.number().int() })),
    }),
  }),
  countries: endpoint({
    ...admin,
    method: 'GET',
    path: '/servers/countries',
    summary: 'Countries with their server and online counts, visibility and order',
    query: fleetCountriesQuery,
    response: listResponse(fleetCountry),
  }),
  country: endpoint({
    ...admin,
    method: 'GET',
    path: '/servers/country',
    summary: 'One country of the fleet: its cities and their servers',
    query: byCountry,
    response: fleetCountryResponse,
  }),
  byCountry: endpoint({
    ...admin,
    method: 'GET',
    path: '/servers/servers-by-country',
    summary: "A country's servers, a page at a time",
    query: pagingQuery.merge(byCountry),
    response: listResponse(adminServer),
  }),
  view: endpoint({
    ...admin,
    method: 'GET',
    path: '/servers/view',
    summary: 'One server, with its interface addresses and node API address',
    query: z.object({ server_id: recordId, lang }),
    response: serverResponse,
  }),
  create: endpoint({
    ...admin,
    method: 'POST',
    path: '/servers/create',
    summary: 'Add a server; answers its enrollment token, shown this once',
    body: serverFields,
    response: serverWithTokenResponse,
    status: 201,
  }),
  update: endpoint({
    ...admin,
    method: 'POST',
    path: '/servers/update',
    summary: "Change a server's settings",
    body: serverUpdateRequest,
    response: serverResponse,
  }),
  maintenance: endpoint({
    ...admin,
    method: 'POST',
    path: '/servers/maintenance',
    summary: 'Maintenance on (no new devices placed; its devices stay) or off',
    body: serverIdInput.extend({ maintenance: z.boolean(invalid) }),
    response: serverResponse,
  }),
  rotateToken: endpoint({
    ...admin,
    method: 'POST',
    path: '/servers/rotate-token',
    summary: 'A new enrollment token (the old one stops working); shown this once',
    body: serverIdInput,
    response: serverWithTokenResponse,
  }),
  delete: endpoint({
    ...admin,
    method: 'POST',
    path: '/servers/delete',
    summary: 'Drain a server (its devices move to another in the country), then remove it',
    body: serverIdInput,
    response: z.object({
      success: z.literal(true),
      moved: z.number().int(),
      stranded: z.number().int(),
    }),
  }),
  updateCountry: endpoint({
    ...admin,
    method: 'POST',
    path: '/servers/countries/update',
    summary: 'Show or hide a country from customers, and its place in their list',
    body: countryUpdateRequest,
    response: z.object({ country: fleetCountry }),
  }),
} as const;
