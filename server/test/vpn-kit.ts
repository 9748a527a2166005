import { generateKeyPairSync } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { countries, entitlements, vpnCities, vpnServers } from '../db/schema/index.ts';
import type { App } from '../http/types.ts';
import { newNodeToken } from '../modules/vpn/node-tokens.ts';

/** A WireGuard key pair as `wg genkey | wg pubkey` would make it (X25519, base64). */
export function wireGuardKeyPair(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('x25519');
  const raw = (der: Buffer) => der.subarray(der.length - 32).toString('base64');
  return {
    privateKey: raw(privateKey.export({ format: 'der', type: 'pkcs8' })),
    publicKey: raw(publicKey.export({ format: 'der', type: 'spki' })),
  };
}

export interface TestServer {
  id: number;
  /** The node's bearer token. */
  token: string;
  /** Its WireGuard key pair, when made enrolled. */
  keys: { privateKey: string; publicKey: string };
  authorization: { authorization: string };
}

let serial = 0;

/**
 * A server straight in the database, as staff would add it; `online` (the default) also
 * gives it the key its node would enroll with and a fresh last-seen time.
 */
export async function createTestServer(
  app: App,
  options: {
    country?: string;
    city?: string;
    status?: 'new' | 'online' | 'offline' | 'maintenance';
    capacity?: number;
    load?: number;
    ipv4Pool?: string;
    name?: string;
  } = {},
): Promise<TestServer> {
  serial += 1;
  const code = options.country ?? 'NL';
  const [country] = await app.db.select().from(countries).where(eq(countries.code, code));
  if (!country) throw new Error(`no country ${code}`);
  const cityName = options.city ?? 'Amsterdam';
  await app.db
    .insert(vpnCities)
    .values({ countryId: country.id, name: cityName })
    .onConflictDoNothing();
  const [city] = await app.db
    .select()
    .from(vpnCities)
    .where(
      and(eq(vpnCities.countryId, country.id), sql`lower(${vpnCities.name}) = lower(${cityName})`),
    );
  if (!city) throw new Error('no city');
  const { token, hash } = newNodeToken();
  const keys = wireGuardKeyPair();
  const status = options.status ?? 'online';
  const enrolled = status !== 'new';
  const [server] = await app.db
    .insert(vpnServers)
    .values({
      name:
        options.name ??
        `test-${code.toLowerCase()}-${serial}-${Math.random().toString(36).slice(2, 7)}`,
      countryId: country.id,
      cityId: city.id,
      endpointHost: `${code.toLowerCase()}-${serial}.vpn.example`,
      endpointPort: 51820,
      ipv4Pool: options.ipv4Pool ?? '10.8.0.0/16',
      ipv6Pool: 'fd42:42:42::/64',
      dns: ['10.8.0.1'],
      capacity: options.capacity ?? 250,
      load: options.load ?? 10,
      status,
      tokenHash: hash,
      ...(enrolled
        ? { publicKey: keys.publicKey, enrolledAt: new Date(), lastSeenAt: new Date() }
        : {}),
    })
    .returning({ id: vpnServers.id });
  if (!server) throw new Error('server not inserted');
  return { id: server.id, token, keys, authorization: { authorization: `Bearer ${token}` } };
}

/** A staff grant in the ledger: the user may use the VPN for `days` from now (billing time). */
export async function grantAccess(app: App, userId: number, days = 30): Promise<void> {
  const now = app.payments.clock.now();
  await app.db.insert(entitlements).values({
    userId,
    source: 'manual',
    sourceRef: `staff:test-${Math.random().toString(36).slice(2)}`,
    startsAt: new Date(now.getTime() - 60_000),
    endsAt: new Date(now.getTime() + days * 86_400_000),
  });
}
