import { randomBytes, randomUUID } from 'node:crypto';
import { and, count, eq, like } from 'drizzle-orm';
import { slugify } from '#shared/content/slugify.ts';
import {
  countries,
  users,
  vpnAccounts,
  vpnCities,
  vpnDevices,
  vpnServers,
} from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { NodeService } from './node-service.ts';
import { newNodeToken } from './node-tokens.ts';
import { freeHost } from './placement.ts';
import { syncVpnAccount } from './vpn-access.ts';
import { vpnContext } from './vpn-context.ts';

// Demo data for `npm start`: a fleet of about forty servers in fifteen countries with a
// spread of states and loads, and two devices of the demo customer with some traffic. The
// demo servers' endpoints are under `.demo.invalid` (RFC 2606: never a real host), their
// nodes are simulated by a heartbeat that sends usage reports through the real node API
// code, and nothing of this runs outside SEED_DEMO.

export const DEMO_HOST_SUFFIX = '.demo.invalid';

type DemoStatus = 'online' | 'offline' | 'maintenance' | 'new';

/** [country, city, status, load, tags] per server. */
const FLEET: readonly [string, string, DemoStatus, number, string[]][] = [
  ['NL', 'Amsterdam', 'online', 34, ['streaming', 'p2p']],
  ['NL', 'Amsterdam', 'online', 58, ['p2p']],
  ['NL', 'Amsterdam', 'maintenance', 0, []],
  ['NL', 'Rotterdam', 'online', 21, []],
  ['DE', 'Frankfurt', 'online', 47, ['streaming']],
  ['DE', 'Frankfurt', 'online', 72, ['p2p']],
  ['DE', 'Berlin', 'online', 29, []],
  ['DE', 'Munich', 'offline', 0, []],
  ['US', 'New York', 'online', 66, ['streaming']],
  ['US', 'New York', 'online', 81, ['streaming']],
  ['US', 'Los Angeles', 'online', 44, ['streaming', 'p2p']],
  ['US', 'Chicago', 'online', 37, []],
  ['US', 'Miami', 'online', 52, []],
  ['US', 'Dallas', 'new', 0, []],
  ['GB', 'London', 'online', 63, ['streaming']],
  ['GB', 'London', 'online', 41, []],
  ['GB', 'Manchester', 'online', 26, ['p2p']],
  ['FR', 'Paris', 'online', 49, ['streaming']],
  ['FR', 'Paris', 'online', 33, []],
  ['FR', 'Marseille', 'offline', 0, []],
  ['ES', 'Madrid', 'online', 38, []],
  ['ES', 'Barcelona', 'online', 19, ['p2p']],
  ['SE', 'Stockholm', 'online', 15, ['p2p']],
  ['SE', 'Gothenburg', 'online', 12, []],
  ['CH', 'Zurich', 'online', 27, ['dedicated-ip']],
  ['CH', 'Geneva', 'maintenance', 0, []],
  ['JP', 'Tokyo', 'online', 74, ['streaming']],
  ['JP', 'Osaka', 'online', 45, []],
  ['SG', 'Singapore', 'online', 55, ['streaming']],
  ['SG', 'Singapore', 'online', 31, []],
  ['CA', 'Toronto', 'online', 36, ['streaming']],
  ['CA', 'Vancouver', 'online', 22, []],
  ['AU', 'Sydney', 'online', 68, ['streaming']],
  ['AU', 'Melbourne', 'offline', 0, []],
  ['BR', 'São Paulo', 'online', 57, []],
  ['BR', 'Rio de Janeiro', 'online', 43, []],
  ['PL', 'Warsaw', 'online', 24, ['p2p']],
  ['PL', 'Krakow', 'online', 18, []],
  ['IT', 'Milan', 'online', 39, ['streaming']],
  ['IT', 'Rome', 'online', 28, []],
];

/** A key for a demo server or device: nobody ever connects, so no private key is kept. */
const demoKey = () => randomBytes(32).toString('base64');

const DEMO_CUSTOMER = 'customer@example.com';
const GB = 1_000_000_000;

export async function seedDemoFleet(app: App): Promise<void> {
  const [existing] = await app.db.select({ n: count() }).from(vpnServers);
  if ((existing?.n ?? 0) > 0) return;
  const rows = await app.db.select({ id: countries.id, code: countries.code }).from(countries);
  const countryId = new Map(rows.map((row) => [row.code, row.id]));
  const perCity = new Map<string, number>();
  const now = new Date();
  await app.db.transaction(async (tx) => {
    for (const [code, city, status, load, tags] of FLEET) {
      const id = countryId.get(code);
      if (id === undefined) continue;
      await tx.insert(vpnCities).values({ countryId: id, name: city }).onConflictDoNothing();
      const [cityRow] = await tx
        .select({ id: vpnCities.id })
        .from(vpnCities)
        .where(and(eq(vpnCities.countryId, id), eq(vpnCities.name, city)));
      const key = `${code}-${city}`;
      const n = (perCity.get(key) ?? 0) + 1;
      perCity.set(key, n);
      const name = `${code.toLowerCase()}-${slugify(city)}-${n}`;
      const enrolled = status !== 'new';
      await tx.insert(vpnServers).values({
        name,
        countryId: id,
        cityId: cityRow?.id ?? 0,
        endpointHost: `${name}${DEMO_HOST_SUFFIX}`,
        endpointPort: 51820,
        ipv4Pool: '10.8.0.0/16',
        ipv6Pool: 'fd42:42:42::/64',
        dns: ['10.8.0.1', 'fd42:42:42::1'],
        capacity: 500,
        tags,
        status,
        load,
        cpu: load,
        tokenHash: newNodeToken().hash,
        ...(enrolled
          ? {
              publicKey: demoKey(),
              agentVersion: '0.1.0',
              enrolledAt: new Date(now.getTime() - 30 * 86_400_000),
              lastSeenAt: status === 'offline' ? new Date(now.getTime() - 3 * 3_600_000) : now,
            }
          : {}),
      });
    }
  });
  await seedDemoDevices(app);
}

/** The demo customer's laptop (fastest, in the Netherlands) and phone (in the US). */
async function seedDemoDevices(app: App): Promise<void> {
  const [customer] = await app.db.select().from(users).where(eq(users.email, DEMO_CUSTOMER));
  if (!customer) return;
  const devices = [
    { name: 'Laptop', location: 'fastest', server: 'nl-amsterdam-1', rx: 3.2 * GB, tx: 14.6 * GB },
    { name: 'Phone', location: 'US', server: 'us-new-york-1', rx: 0.9 * GB, tx: 5.3 * GB },
  ];
  for (const device of devices) {
    const [server] = await app.db
      .select()
      .from(vpnServers)
      .where(eq(vpnServers.name, device.server));
    if (!server) continue;
    const host = await freeHost(app.db, server);
    await app.db.insert(vpnDevices).values({
      userId: customer.id,
      name: device.name,
      publicKey: demoKey(),
      location: device.location,
      serverId: server.id,
      host,
      rxBytes: Math.round(device.rx),
      txBytes: Math.round(device.tx),
      latestHandshakeAt: new Date(Date.now() - 90_000),
    });
  }
  // A limit, so the demo shows the usage bar against it (staff can lift it on the customer page).
  await app.db.update(users).set({ trafficLimitGb: 100 }).where(eq(users.id, customer.id));
  await syncVpnAccount(vpnContext(app), customer.id);
  await app.db
    .update(vpnAccounts)
    .set({ periodRx: Math.round(4.1 * GB), periodTx: Math.round(19.9 * GB) })
    .where(eq(vpnAccounts.userId, customer.id));
}

/**
 * The demo servers' nodes, simulated: every 30 s each demo server that ever enrolled and is
 * not left offline reports through the node API's own code, with a load that drifts and a
 * little traffic for the demo customer's devices. Staff see status and load move live.
 * Twice within OFFLINE_AFTER_MS keeps them online; more often was most of an idle
 * `npm start`'s CPU (2 % of a core on PGlite, Nov 2026), for a demo.
 */
export function startDemoHeartbeat(app: App, everyMs = 30_000): () => void {
  const nodes = new NodeService(vpnContext(app));
  const stream = randomUUID();
  let seq = 0;
  let running = false;
  const beat = async () => {
    if (running) return;
    running = true;
    try {
      seq += 1;
      const demo = like(vpnServers.endpointHost, `%${DEMO_HOST_SUFFIX}`);
      const servers = await app.db.select().from(vpnServers).where(demo);
      const keysByServer = new Map<number | null, { publicKey: string }[]>();
      const allDevices = await app.db
        .select({ serverId: vpnDevices.serverId, publicKey: vpnDevices.publicKey })
        .from(vpnDevices)
        .innerJoin(vpnServers, eq(vpnServers.id, vpnDevices.serverId))
        .where(demo);
      for (const device of allDevices) {
        const list = keysByServer.get(device.serverId) ?? [];
        list.push(device);
        keysByServer.set(device.serverId, list);
      }
      for (const server of servers) {
        // Left offline (or never enrolled) in the demo: their nodes stay silent.
        if (server.retiredAt || server.status === 'offline' || server.status === 'new') continue;
        const devices = keysByServer.get(server.id) ?? [];
        const drift = Math.round((Math.random() - 0.5) * 8);
        const cpu = Math.min(95, Math.max(3, (server.cpu || 20) + drift));
        await nodes.report(
          { serverId: server.id, retired: false },
          {
            stream,
            reports: [
              {
                seq,
                taken_at: new Date().toISOString(),
                cpu,
                active_peers: devices.length,
                peers: devices.map((d) => ({
                  public_key: d.publicKey,
                  rx: Math.round(Math.random() * 2_000_000),
                  tx: Math.round(Math.random() * 9_000_000),
                  latest_handshake_at: new Date(Date.now() - 30_000).toISOString(),
                })),
              },
            ],
          },
        );
      }
    } catch (error) {
      app.log.warn({ err: error }, 'demo fleet heartbeat failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void beat(), everyMs);
  timer.unref();
  void beat();
  return () => clearInterval(timer);
}
