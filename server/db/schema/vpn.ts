import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { DEVICE_BLOCKS } from '#shared/contracts/vpn.ts';
import { SERVER_STATUSES } from '#shared/vpn/fleet-rules.ts';
import { countries } from './countries.ts';
import { users } from './users.ts';

export const vpnServerStatus = pgEnum('vpn_server_status', SERVER_STATUSES);
export const vpnDeviceBlock = pgEnum('vpn_device_block', DEVICE_BLOCKS);

/** A city servers stand in; added when staff first name it for a country. */
export const vpnCities = pgTable(
  'vpn_cities',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    countryId: integer()
      .notNull()
      .references(() => countries.id),
    name: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('vpn_cities_name_key').on(table.countryId, sql`lower(${table.name})`)],
);

/**
 * A VPN server: a WireGuard interface on a machine whose node agent enrolls with the token
 * (stored hashed) and the public key it made. `peersVersion` grows with every change to the
 * set of peers it must have, which is what its long poll waits on. A removed server keeps its
 * row until its node has been told (`retiredAt`), so its peers are taken off, not abandoned.
 */
export const vpnServers = pgTable(
  'vpn_servers',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull(),
    countryId: integer()
      .notNull()
      .references(() => countries.id),
    cityId: integer()
      .notNull()
      .references(() => vpnCities.id),
    endpointHost: text().notNull(),
    endpointPort: integer().notNull(),
    listenPort: integer(),
    publicKey: text(),
    ipv4Pool: text().notNull(),
    ipv6Pool: text().notNull(),
    dns: text().array().notNull(),
    capacity: integer().notNull(),
    tags: text().array().notNull().default(sql`'{}'::text[]`),
    status: vpnServerStatus().notNull().default('new'),
    /** The node's last report: CPU 0–100, peers with a recent handshake, the mix as load. */
    cpu: real().notNull().default(0),
    activePeers: integer().notNull().default(0),
    load: smallint().notNull().default(0),
    lastSeenAt: timestamp({ withTimezone: true }),
    enrolledAt: timestamp({ withTimezone: true }),
    agentVersion: text(),
    /** SHA-256 of the node's bearer token (256 random bits: no slow hash needed). */
    tokenHash: text().notNull(),
    tokenRotatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    peersVersion: bigint({ mode: 'number' }).notNull().default(1),
    /** The node's report stream and the last report of it counted. */
    reportStream: text(),
    reportSeq: bigint({ mode: 'number' }).notNull().default(0),
    /** Removed by staff: gone from every list; the node is told to empty its interface. */
    retiredAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    uniqueIndex('vpn_servers_name_key')
      .on(sql`lower(${table.name})`)
      .where(sql`${table.retiredAt} IS NULL`),
    uniqueIndex('vpn_servers_token_key').on(table.tokenHash),
    uniqueIndex('vpn_servers_public_key_key').on(table.publicKey),
    index('vpn_servers_country_idx').on(table.countryId, table.status),
  ],
);

/**
 * A customer's WireGuard device: one peer, by the public key made in the browser. Its tunnel
 * address is host number `host` of its server's pools. `blockedBy` null means its peer is on
 * its server now; otherwise it says why not (vpn-access.ts keeps it true).
 */
export const vpnDevices = pgTable(
  'vpn_devices',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    publicKey: text().notNull(),
    /** What the customer chose: a country code, or `fastest`. */
    location: text().notNull(),
    serverId: integer().references(() => vpnServers.id, { onDelete: 'set null' }),
    host: integer(),
    /** The server it was moved away from, whose late reports for it still count. */
    previousServerId: integer(),
    /** The OpenID grant of the app that made it (device flow): removing one removes the other. */
    oauthGrantId: text(),
    blockedBy: vpnDeviceBlock(),
    rxBytes: bigint({ mode: 'number' }).notNull().default(0),
    txBytes: bigint({ mode: 'number' }).notNull().default(0),
    latestHandshakeAt: timestamp({ withTimezone: true }),
    /** Its server, or that server's key, changed after its configuration was made. */
    configChangedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    uniqueIndex('vpn_devices_public_key_key').on(table.publicKey),
    uniqueIndex('vpn_devices_host_key').on(table.serverId, table.host),
    index('vpn_devices_user_idx').on(table.userId, table.createdAt),
    index('vpn_devices_peers_idx').on(table.serverId).where(sql`${table.blockedBy} IS NULL`),
  ],
);

/**
 * A person's VPN standing, kept for everyone with a device: what the ledger, the account and
 * staff's limit said when it was last worked out (`fingerprint` of those inputs, so the sweep
 * finds who changed), and the traffic of the billing period.
 */
export const vpnAccounts = pgTable('vpn_accounts', {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  fingerprint: text().notNull().default(''),
  accessActive: boolean().notNull().default(false),
  accessUntil: timestamp({ withTimezone: true }),
  blocked: boolean().notNull().default(false),
  deviceLimit: integer().notNull(),
  limitBytes: bigint({ mode: 'number' }),
  periodStart: timestamp({ withTimezone: true }).notNull(),
  periodEnd: timestamp({ withTimezone: true }).notNull(),
  periodRx: bigint({ mode: 'number' }).notNull().default(0),
  periodTx: bigint({ mode: 'number' }).notNull().default(0),
  limitReachedAt: timestamp({ withTimezone: true }),
  updatedAt: timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

/** A billing period's traffic once it has ended, for staff. */
export const vpnUsagePeriods = pgTable(
  'vpn_usage_periods',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    periodStart: timestamp({ withTimezone: true }).notNull(),
    periodEnd: timestamp({ withTimezone: true }).notNull(),
    rx: bigint({ mode: 'number' }).notNull(),
    tx: bigint({ mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.periodStart] })],
);

export type VpnServerRow = typeof vpnServers.$inferSelect;
export type VpnDeviceRow = typeof vpnDevices.$inferSelect;
export type VpnAccountRow = typeof vpnAccounts.$inferSelect;
export type VpnCityRow = typeof vpnCities.$inferSelect;
