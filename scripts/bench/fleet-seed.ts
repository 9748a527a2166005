import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { fingerprintSql } from '#server/modules/vpn/vpn-access.ts';
import { DEFAULT_DEVICE_LIMIT } from '#shared/vpn/fleet-rules.ts';
import { usagePeriod } from '#shared/vpn/usage-period.ts';

// The VPN fleet's starting state, written straight into the product's PostgreSQL database in
// a handful of set-based statements (generate_series), so 1,000 servers and 100,000 devices
// take seconds rather than the minutes the API would: servers online with known tokens, people
// with a live ledger row and a VPN account whose fingerprint is the one the sweep works out
// (else the sweep would resync 500 of them every 10 s and its writes would count as the
// reports'), and devices two per person on neighbouring servers, hosts 2, 3, … of 10.8.0.0/16.

export interface FleetSize {
  nodes: number;
  peersPerNode: number;
}

export interface SeededNode {
  index: number;
  serverId: number;
  /** The bearer token; the database has its SHA-256, as for a token staff made. */
  token: string;
}

export interface ProbeDevice {
  deviceId: number;
  serverId: number;
  /** The owner's session cookie (`sid=…`), made straight in the sessions table. */
  cookie: string;
}

export interface SeededFleet {
  nodes: SeededNode[];
  probes: ProbeDevice[];
  people: number;
  seconds: number;
}

/** Every seeded row carries one of these, so the next run can take the last one away. */
const SERVER_PREFIX = 'bench-fleet-';
const EMAIL_DOMAIN = '@fleet.bench.invalid';
const CITY = 'Bench';
/** Where the servers stand, in turn: a spread, as a real fleet has (placement is not measured). */
const COUNTRIES = ['NL', 'DE', 'GB', 'US', 'FR', 'SE', 'CH', 'JP', 'SG', 'CA'];
/** People whose devices the peer-change probes rekey, spread over the fleet. */
const PROBE_PEOPLE = 32;
const SESSION_DAYS = 1;

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** Node i's token is this and i: the shape node-auth.ts accepts (`[A-Za-z0-9_-]{16,128}`). */
const tokenPrefix = (run: string) => `vpnnode_fleet${run}_`;

export async function seedFleet(
  client: pg.Client,
  size: FleetSize,
  cookieName: string,
): Promise<SeededFleet> {
  const started = performance.now();
  const db = drizzle({ client });
  const run = randomBytes(3).toString('hex');
  const { nodes, peersPerNode } = size;
  const devices = nodes * peersPerNode;
  const people = Math.ceil(devices / 2);
  const now = new Date();
  const startsAt = new Date(now.getTime() - 86_400_000);
  const endsAt = new Date(now.getTime() + 30 * 86_400_000);
  // No subscription: the traffic counts over the calendar month, as syncAccountIn would set.
  const period = usagePeriod(now, null);

  // A previous run's fleet goes first: its silent servers would be swept offline during the
  // measurement, and the sweep's writes counted as the reports'. Its people stay and are
  // used again: deleting 50,000 users takes half a minute of foreign-key checks.
  const earlier = sql`(SELECT id FROM users WHERE email LIKE ${`%${EMAIL_DOMAIN}`}::text)`;
  for (const table of [
    'vpn_devices',
    'vpn_accounts',
    'vpn_usage_periods',
    'entitlements',
    'sessions',
  ]) {
    await db.execute(sql`DELETE FROM ${sql.identifier(table)} WHERE user_id IN ${earlier}`);
  }
  await db.execute(sql`DELETE FROM vpn_servers WHERE name LIKE ${`${SERVER_PREFIX}%`}::text`);

  await db.execute(sql`
    INSERT INTO vpn_cities (country_id, name)
    SELECT id, ${CITY}::text FROM countries WHERE code = ANY(${sql.param(COUNTRIES)}::text[])
    ON CONFLICT DO NOTHING`);
  await db.execute(sql`
    CREATE TEMP TABLE fleet_servers (i int PRIMARY KEY, id int NOT NULL, code text NOT NULL)`);
  await db.execute(sql`
    WITH places AS (
      SELECT (row_number() OVER (ORDER BY c.code) - 1)::int AS n, c.id AS country_id, c.code,
             ci.id AS city_id
      FROM countries c JOIN vpn_cities ci ON ci.country_id = c.id AND ci.name = ${CITY}::text
      WHERE c.code = ANY(${sql.param(COUNTRIES)}::text[])),
    added AS (
      INSERT INTO vpn_servers (name, country_id, city_id, endpoint_host, endpoint_port,
        public_key, ipv4_pool, ipv6_pool, dns, capacity, status, cpu, active_peers, load,
        last_seen_at, enrolled_at, agent_version, token_hash)
      SELECT ${SERVER_PREFIX}::text || i, p.country_id, p.city_id, 'fleet-' || i || '.bench.invalid',
        51820, encode(sha256(convert_to('fleet-server-' || ${run}::text || '-' || i, 'UTF8')), 'base64'),
        '10.8.0.0/16', 'fd42:42:42::/64', ARRAY['10.8.0.1'], ${peersPerNode * 2}::int, 'online',
        20, 0, 20, now(), now(), 'bench',
        encode(sha256(convert_to(${tokenPrefix(run)}::text || i, 'UTF8')), 'hex')
      FROM generate_series(0, ${nodes - 1}::int) AS i
      JOIN places p ON p.n = i % (SELECT count(*) FROM places)
      RETURNING id, name, country_id)
    INSERT INTO fleet_servers
    SELECT substring(a.name FROM ${SERVER_PREFIX.length + 1}::int)::int, a.id, c.code
    FROM added a JOIN countries c ON c.id = a.country_id`);

  await db.execute(sql`CREATE TEMP TABLE fleet_people (u int PRIMARY KEY, id int NOT NULL)`);
  await db.execute(sql`
    INSERT INTO users (username, email, email_verified_at)
    SELECT 'fleet_' || u, 'fleet-' || u || ${EMAIL_DOMAIN}::text, now()
    FROM generate_series(0, ${people - 1}::int) AS u
    ON CONFLICT DO NOTHING`);
  await db.execute(sql`
    INSERT INTO fleet_people
    SELECT split_part(split_part(email, '@', 1), '-', 2)::int AS u, id FROM users
    WHERE email LIKE ${`%${EMAIL_DOMAIN}`}::text
      AND split_part(split_part(email, '@', 1), '-', 2)::int < ${people}::int`);
  // A staff grant each: the ledger row that gives access (server/test/vpn-kit.ts grantAccess).
  await db.execute(sql`
    INSERT INTO entitlements (user_id, source, source_ref, starts_at, ends_at)
    SELECT id, 'manual', 'staff:bench-fleet', ${startsAt}::timestamptz, ${endsAt}::timestamptz
    FROM fleet_people`);
  await db.execute(sql`
    INSERT INTO vpn_accounts (user_id, fingerprint, access_active, access_until, blocked,
      device_limit, period_start, period_end)
    SELECT f.id, ${fingerprintSql(sql`f.id`, now)}, true, ${endsAt}::timestamptz, false,
      ${DEFAULT_DEVICE_LIMIT}::int, ${period.start}::timestamptz, ${period.end}::timestamptz
    FROM fleet_people f`);
  // Device d: server d mod N, host 2 + d div N, person d div 2 (their two devices on two
  // neighbouring servers, so a report names as many people as active peers, as it would).
  await db.execute(sql`
    INSERT INTO vpn_devices (user_id, name, public_key, location, server_id, host,
      latest_handshake_at)
    SELECT p.id, 'Device ' || (d % 2 + 1),
      encode(sha256(convert_to('fleet-device-' || ${run}::text || '-' || d, 'UTF8')), 'base64'),
      s.code, s.id, 2 + d / ${nodes}::int, now()
    FROM generate_series(0, ${devices - 1}::int) AS d
    JOIN fleet_servers s ON s.i = d % ${nodes}::int
    JOIN fleet_people p ON p.u = d / 2`);

  const seededNodes = await db.execute<{ i: number; id: number }>(
    sql`SELECT i, id FROM fleet_servers ORDER BY i`,
  );
  const probes = await probeDevices(db, people, cookieName);
  await db.execute(sql`DROP TABLE fleet_servers, fleet_people`);
  // Statistics for the planner, as autovacuum would gather them soon after such a load.
  await db.execute(
    sql`VACUUM ANALYZE users, entitlements, vpn_accounts, vpn_servers, vpn_devices, sessions`,
  );
  return {
    nodes: seededNodes.rows.map((row) => ({
      index: row.i,
      serverId: row.id,
      token: `${tokenPrefix(run)}${row.i}`,
    })),
    probes,
    people,
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * Sessions for a few of the people, straight in the table as a sign-in makes them (hashed
 * token, their role), and the devices of theirs the probes will rekey.
 */
async function probeDevices(
  db: NodePgDatabase,
  people: number,
  cookieName: string,
): Promise<ProbeDevice[]> {
  const count = Math.min(PROBE_PEOPLE, people);
  const chosen = Array.from({ length: count }, (_, j) => Math.floor((j * people) / count));
  const tokens = chosen.map(() => randomBytes(32).toString('base64url'));
  const hashes = tokens.map(sha256Hex);
  const added = await db.execute<{ user_id: number; token_hash: string }>(sql`
    INSERT INTO sessions (user_id, token_hash, role, ip, user_agent, expires_at)
    SELECT p.id, c.token_hash, 'USER', '127.0.0.1', 'bench-fleet',
      now() + make_interval(days => ${SESSION_DAYS}::int)
    FROM unnest(${sql.param(chosen)}::int[], ${sql.param(hashes)}::text[]) AS c(u, token_hash)
    JOIN fleet_people p ON p.u = c.u
    RETURNING user_id, token_hash`);
  const tokenOfHash = new Map(hashes.map((hash, i) => [hash, tokens[i]]));
  const cookieOf = new Map(
    added.rows.map((row) => [
      Number(row.user_id),
      `${cookieName}=${tokenOfHash.get(row.token_hash) ?? ''}`,
    ]),
  );
  const owned = await db.execute<{ id: number; user_id: number; server_id: number }>(sql`
    SELECT id, user_id, server_id FROM vpn_devices
    WHERE user_id = ANY(${sql.param([...cookieOf.keys()])}::int[]) ORDER BY id`);
  return owned.rows.flatMap((row) => {
    const cookie = cookieOf.get(Number(row.user_id));
    return cookie ? [{ deviceId: row.id, serverId: row.server_id, cookie }] : [];
  });
}
