import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customerEndpoints } from '#shared/contracts/admin/customers.ts';
import { vpnEndpoints } from '#shared/contracts/vpn.ts';
import { nodeEndpoints as n, type UsageReport } from '#shared/contracts/vpn-node.ts';
import { entitlements, users, vpnServers } from '../../db/schema/index.ts';
import { endpointClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser } from '../../test/test-sessions.ts';
import { createTestServer, grantAccess, wireGuardKeyPair } from '../../test/vpn-kit.ts';
import { until } from '../../test/wait-until.ts';
import { fleetSweep } from './fleet-sweep.ts';

// The node API through the real routes: what a node's agent sees of its peers as customers
// add devices and their access changes, and how its usage reports are counted.
const { app } = await createTestApp({}, undefined, { vpn: { pollWaitMs: 300 } });
const api = endpointClient(app);
const admin = await signedInUser(app, { role: 'ADMIN' });

async function customerWithDevice(server: { id: number }, country = 'NL') {
  const customer = await signedInUser(app);
  await grantAccess(app, customer.user.id);
  const keys = wireGuardKeyPair();
  const added = await api(vpnEndpoints.create, {
    cookie: customer.cookie,
    body: { name: 'Laptop', location: country, public_key: keys.publicKey },
  });
  expect(added.status, added.text).toBe(201);
  const [row] = await app.db.select().from(vpnServers).where(eq(vpnServers.id, server.id));
  expect(added.data.device.server?.name).toBe(row?.name);
  return { customer, keys, device: added.data.device };
}

const peersOf = (server: { authorization: Record<string, string> }, version?: number) =>
  api(n.peers, { headers: server.authorization, query: version === undefined ? {} : { version } });

const report = (seq: number, peers: UsageReport['peers'], extra: Partial<UsageReport> = {}) => ({
  seq,
  taken_at: new Date().toISOString(),
  cpu: 12.5,
  active_peers: peers.length,
  peers,
  ...extra,
});

describe('peers', () => {
  it('answers the full set at once, then waits for a change and answers it', async () => {
    const server = await createTestServer(app, { country: 'BE', city: 'Brussels' });
    const first = await peersOf(server);
    expect(first.data).toMatchObject({ changed: true, peers: [], retired: false });
    const idle = await peersOf(server, first.data.version);
    expect(idle.data).toMatchObject({ changed: false, version: first.data.version, peers: [] });

    const waiting = peersOf(server, first.data.version);
    const started = Date.now();
    const { keys } = await customerWithDevice(server, 'BE');
    const changed = await waiting;
    expect(Date.now() - started).toBeLessThan(1_000 + 300);
    expect(changed.data.changed).toBe(true);
    expect(changed.data.version).toBeGreaterThan(first.data.version);
    expect(changed.data.peers).toEqual([
      { public_key: keys.publicKey, allowed_ips: ['10.8.0.2/32', 'fd42:42:42::2/128'] },
    ]);
  });

  it('never shows a node another server’s peers', async () => {
    const mine = await createTestServer(app, { country: 'LU', city: 'Luxembourg' });
    const other = await createTestServer(app, { country: 'LT', city: 'Vilnius' });
    await customerWithDevice(other, 'LT');
    expect((await peersOf(mine)).data.peers).toEqual([]);
    expect((await peersOf(other)).data.peers).toHaveLength(1);
  });
});

describe('enrolling', () => {
  it('takes the node’s key, brings it online and answers its settings', async () => {
    const server = await createTestServer(app, {
      status: 'new',
      country: 'DK',
      city: 'Copenhagen',
    });
    const keys = wireGuardKeyPair();
    const answer = await api(n.enroll, {
      headers: server.authorization,
      body: { public_key: keys.publicKey, agent_version: '0.1.0' },
    });
    expect(answer.data).toMatchObject({
      listen_port: 51820,
      interface_addresses: ['10.8.0.1/16', 'fd42:42:42::1/64'],
      report_interval_ms: 10_000,
    });
    const [row] = await app.db.select().from(vpnServers).where(eq(vpnServers.id, server.id));
    expect(row).toMatchObject({
      publicKey: keys.publicKey,
      status: 'online',
      agentVersion: '0.1.0',
    });
    const bad = await api(n.enroll, {
      headers: server.authorization,
      body: { public_key: 'not-a-key', agent_version: '0.1.0' },
    });
    expect(bad.status).toBe(422);
  });

  it('refuses a token on every route but the node API, and a session on the node API', async () => {
    const server = await createTestServer(app, { country: 'EE', city: 'Tallinn' });
    const customer = await signedInUser(app);
    expect((await api(vpnEndpoints.devices, { headers: server.authorization })).status).toBe(401);
    expect((await api(n.peers, { cookie: customer.cookie })).status).toBe(403);
    expect(
      (await api(n.peers, { headers: { authorization: 'Bearer vpnnode_wrong' } })).status,
    ).toBe(401);
  });
});

describe('usage reports', () => {
  it('counts each report once, in order, and acknowledges a resent one again', async () => {
    const server = await createTestServer(app, { country: 'IE', city: 'Dublin', capacity: 10 });
    const { customer, keys, device } = await customerWithDevice(server, 'IE');
    const stream = randomUUID();
    const handshake = new Date().toISOString();
    const peer = {
      public_key: keys.publicKey,
      rx: 1_000,
      tx: 4_000,
      latest_handshake_at: handshake,
    };
    const first = await api(n.report, {
      headers: server.authorization,
      body: { stream, reports: [report(1, [peer]), report(2, [{ ...peer, rx: 500, tx: 500 }])] },
    });
    expect(first.data).toEqual({ acked_seq: 2 });
    // The acknowledgement got lost: the node sends 2 again with 3.
    const again = await api(n.report, {
      headers: server.authorization,
      body: {
        stream,
        reports: [
          report(2, [{ ...peer, rx: 500, tx: 500 }]),
          report(3, [{ ...peer, rx: 1, tx: 1 }], { cpu: 50 }),
        ],
      },
    });
    expect(again.data).toEqual({ acked_seq: 3 });
    const disorder = await api(n.report, {
      headers: server.authorization,
      body: { stream, reports: [report(5, []), report(4, [])] },
    });
    expect(disorder.status).toBe(400);

    const list = await api(vpnEndpoints.devices, { cookie: customer.cookie });
    const mine = list.data.items.find((d) => d.device_id === device.device_id);
    expect(mine).toMatchObject({
      rx_bytes: 1_501,
      tx_bytes: 4_501,
      latest_handshake_at: handshake,
    });
    expect(list.data.usage.used_bytes).toBe(6_002);
    const [row] = await app.db.select().from(vpnServers).where(eq(vpnServers.id, server.id));
    // The busier of its CPU (50 %) and its peers against capacity (1 of 10).
    expect(row).toMatchObject({ reportSeq: 3, load: 50, status: 'online', activePeers: 1 });
  });

  it('ignores the traffic of a key that is not one of its devices', async () => {
    const server = await createTestServer(app, { country: 'PT', city: 'Lisbon' });
    const other = await createTestServer(app, { country: 'ES', city: 'Madrid' });
    const { customer, keys } = await customerWithDevice(other, 'ES');
    const answer = await api(n.report, {
      headers: server.authorization,
      body: {
        stream: randomUUID(),
        reports: [
          report(1, [
            { public_key: keys.publicKey, rx: 9_999, tx: 9_999, latest_handshake_at: null },
          ]),
        ],
      },
    });
    expect(answer.data).toEqual({ acked_seq: 1 });
    const list = await api(vpnEndpoints.devices, { cookie: customer.cookie });
    expect(list.data.usage.used_bytes).toBe(0);
  });

  it('starts a new count when the node’s stream is new (its state folder was lost)', async () => {
    const server = await createTestServer(app, { country: 'GR', city: 'Athens' });
    const { customer, keys } = await customerWithDevice(server, 'GR');
    const peer = { public_key: keys.publicKey, rx: 10, tx: 10, latest_handshake_at: null };
    await api(n.report, {
      headers: server.authorization,
      body: { stream: randomUUID(), reports: [report(1, [peer]), report(2, [peer])] },
    });
    const fresh = await api(n.report, {
      headers: server.authorization,
      body: { stream: randomUUID(), reports: [report(1, [peer])] },
    });
    expect(fresh.data).toEqual({ acked_seq: 1 });
    const list = await api(vpnEndpoints.devices, { cookie: customer.cookie });
    expect(list.data.usage.used_bytes).toBe(60);
  });
});

describe('abuse of the report call', () => {
  it('keeps a CPU load to hundredths, so a value too small for the column is 0, not a 500', async () => {
    const server = await createTestServer(app, { country: 'PT', city: 'Lisbon' });
    // Found by the fuzz test: the smallest double underflows PostgreSQL's `real`.
    const answer = await api(n.report, {
      headers: server.authorization,
      body: { stream: randomUUID(), reports: [report(1, [], { cpu: 5e-324 })] },
    });
    expect(answer.status, answer.text).toBe(200);
    const again = await api(n.report, {
      headers: server.authorization,
      body: { stream: randomUUID(), reports: [report(1, [], { cpu: 33.3333 })] },
    });
    expect(again.status).toBe(200);
    const [row] = await app.db.select().from(vpnServers).where(eq(vpnServers.id, server.id));
    expect(row?.cpu).toBeCloseTo(33.33, 5);
  });

  it('refuses a body over the size limit and a node reporting too often', async () => {
    const server = await createTestServer(app, { country: 'SK', city: 'Bratislava' });
    const stream = randomUUID();
    const huge = await api(n.report, {
      headers: server.authorization,
      body: { stream, reports: [report(1, [], { padding: 'x'.repeat(1_100_000) } as never)] },
    });
    expect(huge.status).toBe(413);
    let status = 200;
    let calls = 0;
    while (status === 200 && calls < 100) {
      calls += 1;
      status = (
        await api(n.report, {
          headers: server.authorization,
          body: { stream, reports: [report(calls, [])] },
        })
      ).status;
    }
    expect(status).toBe(429);
    expect(calls).toBe(61);
  });
});

describe('access on the nodes', () => {
  it('takes the peers off when the traffic limit is reached, and back on when it is lifted', async () => {
    const server = await createTestServer(app, { country: 'HU', city: 'Budapest' });
    const { customer, keys } = await customerWithDevice(server, 'HU');
    const limited = await api(customerEndpoints.updateTrafficLimit, {
      cookie: admin.cookie,
      body: { user_id: customer.user.id, traffic_limit: 1 },
    });
    expect(limited.status, limited.text).toBe(200);
    await fleetSweep(app);
    const before = await peersOf(server);
    expect(before.data.peers).toHaveLength(1);
    const waiting = peersOf(server, before.data.version);
    await api(n.report, {
      headers: server.authorization,
      body: {
        stream: randomUUID(),
        reports: [
          report(1, [
            {
              public_key: keys.publicKey,
              rx: 600_000_000,
              tx: 400_000_000,
              latest_handshake_at: null,
            },
          ]),
        ],
      },
    });
    expect((await waiting).data.peers).toEqual([]);
    const list = await api(vpnEndpoints.devices, { cookie: customer.cookie });
    expect(list.data.usage).toMatchObject({ limit_bytes: 1_000_000_000, limit_reached: true });
    expect(list.data.items[0]).toMatchObject({ enabled: false, blocked_by: 'traffic_limit' });

    await api(customerEndpoints.updateTrafficLimit, {
      cookie: admin.cookie,
      body: { user_id: customer.user.id, traffic_limit: 5 },
    });
    await fleetSweep(app);
    expect((await peersOf(server)).data.peers).toHaveLength(1);
  });

  it('takes every peer off when access ends, and back when it returns', async () => {
    const server = await createTestServer(app, { country: 'RO', city: 'Bucharest' });
    const { customer } = await customerWithDevice(server, 'RO');
    await app.db
      .update(entitlements)
      .set({ endsAt: new Date(Date.now() - 1_000) })
      .where(eq(entitlements.userId, customer.user.id));
    const synced = await fleetSweep(app);
    expect(synced.synced).toBeGreaterThanOrEqual(1);
    expect((await peersOf(server)).data.peers).toEqual([]);
    const list = await api(vpnEndpoints.devices, { cookie: customer.cookie });
    expect(list.data.access.active).toBe(false);
    expect(list.data.items[0]?.blocked_by).toBe('no_access');

    await grantAccess(app, customer.user.id);
    await fleetSweep(app);
    expect((await peersOf(server)).data.peers).toHaveLength(1);

    await app.db.update(users).set({ blockedAt: new Date() }).where(eq(users.id, customer.user.id));
    await fleetSweep(app);
    expect((await peersOf(server)).data.peers).toEqual([]);
  });

  it('takes the peers off when an entitlement runs out on its own, between two sweeps', async () => {
    const server = await createTestServer(app, { country: 'CY', city: 'Nicosia' });
    const { customer } = await customerWithDevice(server, 'CY');
    await app.db
      .update(entitlements)
      .set({ endsAt: new Date(Date.now() + 1_500) })
      .where(eq(entitlements.userId, customer.user.id));
    await fleetSweep(app);
    expect((await peersOf(server)).data.peers).toHaveLength(1);
    // Nothing is written when it ends: the sweep finds it by the date alone.
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    await fleetSweep(app);
    expect((await peersOf(server)).data.peers).toEqual([]);
  });

  it('marks a node offline after a minute without a report', async () => {
    const server = await createTestServer(app, { country: 'BG', city: 'Sofia' });
    await app.db
      .update(vpnServers)
      .set({ lastSeenAt: new Date(Date.now() - 61_000) })
      .where(eq(vpnServers.id, server.id));
    await fleetSweep(app);
    const [row] = await app.db.select().from(vpnServers).where(eq(vpnServers.id, server.id));
    expect(row?.status).toBe('offline');
    await api(n.report, {
      headers: server.authorization,
      body: { stream: randomUUID(), reports: [report(1, [])] },
    });
    await until(async () => {
      const [after] = await app.db.select().from(vpnServers).where(eq(vpnServers.id, server.id));
      return after?.status === 'online';
    }, 'the server back online');
  });
});
