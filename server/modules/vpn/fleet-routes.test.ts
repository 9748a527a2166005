import { and, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import {
  serverEndpoints as e,
  SERVER_MESSAGES as M,
  type ServerFieldsInput,
} from '#shared/contracts/admin/servers.ts';
import { FLEET_STAFF_CHANNEL } from '#shared/contracts/realtime.ts';
import { vpnEndpoints } from '#shared/contracts/vpn.ts';
import { nodeEndpoints } from '#shared/contracts/vpn-node.ts';
import { auditLog, vpnDevices, vpnServers } from '../../db/schema/index.ts';
import { endpointClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser } from '../../test/test-sessions.ts';
import { createTestServer, grantAccess, wireGuardKeyPair } from '../../test/vpn-kit.ts';
import { until } from '../../test/wait-until.ts';

// §2 /admin/servers and §7 dashboard /servers through the real routes and database. Who may
// call them is the authorization matrix's; the refusals under each field are checked here.
const { app } = await createTestApp({}, undefined, {
  vpn: { pollWaitMs: 1_000, fleetEvents: { staffEveryMs: 20, locationsEveryMs: 20 } },
});
const publish = vi.spyOn(app.realtime, 'publish');
const api = endpointClient(app);
const admin = await signedInUser(app, { role: 'ADMIN' });
const as = { cookie: admin.cookie };
let serial = 0;

const fields = (extra: Partial<ServerFieldsInput> = {}): ServerFieldsInput => {
  serial += 1;
  return {
    name: `de-fra-${serial}-${Date.now().toString(36)}`,
    country_code: 'DE',
    city: 'Frankfurt',
    endpoint_host: `de-fra-${serial}.vpn.example`,
    endpoint_port: 51820,
    ...extra,
  };
};

async function create(extra: Partial<ServerFieldsInput> = {}) {
  const answer = await api(e.create, { ...as, body: fields(extra) });
  expect(answer.status, answer.text).toBe(201);
  return answer.data;
}

async function audited(serverId: number, action: string) {
  return app.db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.subjectType, 'vpn_server'),
        eq(auditLog.subjectId, String(serverId)),
        eq(auditLog.action, action),
      ),
    );
}

/** A customer with access and one device on the server, by the API. */
async function customerOn(country: string) {
  const customer = await signedInUser(app);
  await grantAccess(app, customer.user.id);
  const keys = wireGuardKeyPair();
  const added = await api(vpnEndpoints.create, {
    cookie: customer.cookie,
    body: { name: 'Phone', location: country, public_key: keys.publicKey },
  });
  expect(added.status, added.text).toBe(201);
  return { customer, device: added.data.device, config: added.data.config };
}

describe('adding a server', () => {
  it('answers the server, new, with its enrollment token shown once and stored hashed', async () => {
    const { server, enrollment_token: token } = await create({ tags: ['Streaming', 'p2p'] });
    expect(server).toMatchObject({
      country_code: 'DE',
      city: 'Frankfurt',
      status: 'new',
      public_key: null,
      ipv4_pool: '10.8.0.0/16',
      tags: ['streaming', 'p2p'],
      interface_addresses: ['10.8.0.1/16', 'fd42:42:42::1/64'],
      devices: 0,
    });
    expect(token).toMatch(/^vpnnode_[A-Za-z0-9_-]{43}$/);
    const [row] = await app.db.select().from(vpnServers).where(eq(vpnServers.id, server.server_id));
    expect(row?.tokenHash).not.toContain(token);
    expect(
      JSON.stringify((await api(e.view, { ...as, query: { server_id: server.server_id } })).body),
    ).not.toContain(token);
    expect(await audited(server.server_id, 'servers.created')).toHaveLength(1);
    // The token opens the node API: the node enrolls with the key it made.
    const enrolled = await api(nodeEndpoints.enroll, {
      headers: { authorization: `Bearer ${token}` },
      body: { public_key: wireGuardKeyPair().publicKey, agent_version: '1.0.0' },
    });
    expect(enrolled.status, enrolled.text).toBe(200);
    expect(enrolled.data).toMatchObject({ server_id: server.server_id, listen_port: 51820 });
  });

  it('reuses a city of the country by name, and knows its cities', async () => {
    const first = await create({ city: 'Hamburg' });
    const second = await create({ city: 'hamburg' });
    expect(second.server.city_id).toBe(first.server.city_id);
    const cities = await api(e.cities, { ...as, query: { country_code: 'de' } });
    expect(cities.data.items.find((c) => c.name === 'Hamburg')).toMatchObject({ servers: 2 });
  });

  it.each([
    ['endpoint_host', { endpoint_host: 'not a host' }, M.hostInvalid],
    ['endpoint_host', { endpoint_host: 'http://vpn.example.com' }, M.hostInvalid],
    ['endpoint_port', { endpoint_port: 0 }, M.portInvalid],
    ['endpoint_port', { endpoint_port: 65_536 }, M.portInvalid],
    ['ipv4_pool', { ipv4_pool: '10.8.0.1/16' }, M.ipv4PoolInvalid],
    ['ipv6_pool', { ipv6_pool: '10.8.0.0/16' }, M.ipv6PoolInvalid],
    ['dns', { dns: ['one.one.one.one'] }, M.dnsInvalid],
    ['tags', { tags: ['no spaces'] }, M.tagInvalid],
    ['country_code', { country_code: 'XX' }, M.countryUnknown],
  ] as [string, Partial<ServerFieldsInput>, string][])(
    'refuses a bad %s under the field',
    async (field, extra, message) => {
      const answer = await api(e.create, { ...as, body: fields(extra) });
      expect(answer.status, answer.text).toBe(422);
      const errors = answer.body.errors_validation as Record<string, string[]>;
      const key = Object.keys(errors).find((name) => name.startsWith(field));
      expect(key ? errors[key] : errors, answer.text).toContain(message);
    },
  );

  it('refuses a city of another country, and a name another server has', async () => {
    const french = await create({ country_code: 'FR', city: 'Paris' });
    const elsewhere = await api(e.create, {
      ...as,
      body: fields({ city_id: french.server.city_id }),
    });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.errors_validation).toEqual({ city: [M.cityElsewhere] });
    const taken = await api(e.create, {
      ...as,
      body: fields({ name: french.server.name.toUpperCase() }),
    });
    expect(taken.status).toBe(422);
    expect(taken.body.errors_validation).toEqual({ name: [M.nameTaken] });
  });
});

describe('lists', () => {
  it('filters by country, status and tag, and counts per country', async () => {
    const tagged = await create({ country_code: 'SE', city: 'Stockholm', tags: ['tor'] });
    await createTestServer(app, { country: 'SE', city: 'Malmo' });
    const byTag = await api(e.list, { ...as, query: { tag: 'tor', country_code: 'SE' } });
    expect(byTag.data.items.map((s) => s.server_id)).toEqual([tagged.server.server_id]);
    const online = await api(e.list, { ...as, query: { country_code: 'SE', status: 'online' } });
    expect(online.data.items.map((s) => s.city)).toEqual(['Malmo']);

    const countries = await api(e.countries, { ...as, query: { search: 'Sweden' } });
    expect(countries.data.items).toEqual([
      expect.objectContaining({
        country_code: 'SE',
        servers: 2,
        online: 1,
        cities: 2,
        visible: true,
      }),
    ]);
    const everyone = await api(e.countries, { ...as, query: { scope: 'all', per_page: 100 } });
    expect(everyone.data.controls.total).toBe(249);

    const page = await api(e.country, { ...as, query: { country_code: 'SE', lang: 'fr' } });
    expect(page.data.country.name).toBe('Suède');
    expect(page.data.cities.map((c) => [c.name, c.items.length])).toEqual([
      ['Malmo', 1],
      ['Stockholm', 1],
    ]);
    const paged = await api(e.byCountry, { ...as, query: { country_code: 'SE', per_page: 1 } });
    expect(paged.data.controls).toMatchObject({ total: 2, last_page: 2 });
  });

  it('names countries in the page’s language, sorts by that name, and lists the tags in use', async () => {
    await create({ country_code: 'HR', city: 'Zagreb', tags: ['p2p', 'dedicated-ip'] });
    await create({ country_code: 'HR', city: 'Split', tags: ['p2p'] });
    const croatian = await api(e.list, {
      ...as,
      query: { country_code: 'HR', lang: 'fr', sort: 'country', direction: 'asc' },
    });
    expect(croatian.data.items.map((s) => s.country_name)).toEqual(['Croatie', 'Croatie']);
    const view = await api(e.view, {
      ...as,
      query: { server_id: croatian.data.items[0]?.server_id ?? 0, lang: 'nl' },
    });
    expect(view.data.server.country_name).toBe('Kroatië');
    const byName = await api(e.list, {
      ...as,
      query: { lang: 'nl', sort: 'country', direction: 'asc', per_page: 100 },
    });
    const names = byName.data.items.map((s) => s.country_name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'nl')));
    const tags = await api(e.tags, as);
    expect(tags.data.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tag: 'dedicated-ip' }),
        expect.objectContaining({ tag: 'p2p' }),
      ]),
    );
    const p2p = tags.data.items.find((item) => item.tag === 'p2p');
    expect(p2p?.servers).toBeGreaterThanOrEqual(2);
  });

  it('answers 404 for a country page of an unknown code', async () => {
    expect((await api(e.country, { ...as, query: { country_code: 'XX' } })).status).toBe(404);
  });
});

describe('changing a server', () => {
  it('keeps the pools and capacity its devices need, and tells devices their config changed', async () => {
    const server = await createTestServer(app, { country: 'AT', city: 'Vienna', capacity: 5 });
    const { customer, device } = await customerOn('AT');
    const view = (await api(e.view, { ...as, query: { server_id: server.id } })).data.server;
    const update = (extra: Partial<ServerFieldsInput>) =>
      api(e.update, {
        ...as,
        body: {
          server_id: server.id,
          name: view.name,
          country_code: 'AT',
          city: 'Vienna',
          endpoint_host: view.endpoint_host,
          endpoint_port: view.endpoint_port,
          ipv4_pool: view.ipv4_pool,
          ipv6_pool: view.ipv6_pool,
          dns: view.dns,
          capacity: view.capacity,
          ...extra,
        },
      });
    expect((await update({ capacity: 0 })).status).toBe(422);
    const pool = await update({ ipv4_pool: '10.9.0.0/16' });
    expect(pool.body.errors_validation).toEqual({ ipv4_pool: [M.poolInUse] });
    const moved = await update({ endpoint_port: 443, tags: ['streaming'] });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.data.server).toMatchObject({ endpoint_port: 443, tags: ['streaming'] });
    const config = await api(vpnEndpoints.config, {
      cookie: customer.cookie,
      query: { device_id: device.device_id },
    });
    expect(config.data.config?.peer.endpoint).toBe(`${view.endpoint_host}:443`);
    expect(config.data.device.config_changed_at).not.toBeNull();
    const [row] = await audited(server.id, 'servers.updated');
    expect(row?.data).toEqual({ changed: ['endpointPort', 'tags'] });
  });

  it('puts a server in maintenance and back, audited', async () => {
    const server = await createTestServer(app, { country: 'PL', city: 'Warsaw' });
    const on = await api(e.maintenance, {
      ...as,
      body: { server_id: server.id, maintenance: true },
    });
    expect(on.data.server.status).toBe('maintenance');
    const off = await api(e.maintenance, {
      ...as,
      body: { server_id: server.id, maintenance: false },
    });
    expect(off.data.server.status).toBe('online');
    expect(await audited(server.id, 'servers.maintenance_on')).toHaveLength(1);
    expect(await audited(server.id, 'servers.maintenance_off')).toHaveLength(1);
  });

  it('rotates the token: the old one stops at once, the new one works', async () => {
    const server = await createTestServer(app, { country: 'CZ', city: 'Prague' });
    const rotated = await api(e.rotateToken, { ...as, body: { server_id: server.id } });
    expect(rotated.status).toBe(200);
    const old = await api(nodeEndpoints.peers, { headers: server.authorization });
    expect(old.status).toBe(401);
    const fresh = await api(nodeEndpoints.peers, {
      headers: { authorization: `Bearer ${rotated.data.enrollment_token}` },
    });
    expect(fresh.status).toBe(200);
    // A new machine may now enroll with another key; the devices are told.
    const enrolled = await api(nodeEndpoints.enroll, {
      headers: { authorization: `Bearer ${rotated.data.enrollment_token}` },
      body: { public_key: wireGuardKeyPair().publicKey, agent_version: '1.0.1' },
    });
    expect(enrolled.status, enrolled.text).toBe(200);
    const again = await api(nodeEndpoints.enroll, {
      headers: { authorization: `Bearer ${rotated.data.enrollment_token}` },
      body: { public_key: wireGuardKeyPair().publicKey, agent_version: '1.0.1' },
    });
    expect(again.status).toBe(409);
    expect(again.body.errors_info).toEqual(['node.key_mismatch']);
  });
});

describe('removing a server', () => {
  it('moves its devices to the lightest server left in the country, then removes it', async () => {
    const doomed = await createTestServer(app, { country: 'NO', city: 'Oslo', load: 5 });
    const { customer, device } = await customerOn('NO');
    expect(device.server?.name).toBeDefined();
    const busy = await createTestServer(app, { country: 'NO', city: 'Oslo', load: 90 });
    const light = await createTestServer(app, { country: 'NO', city: 'Bergen', load: 20 });
    const before = (await api(e.view, { ...as, query: { server_id: doomed.id } })).data.server;
    expect(before.devices).toBe(1);

    const removed = await api(e.delete, { ...as, body: { server_id: doomed.id } });
    expect(removed.data).toEqual({ success: true, moved: 1, stranded: 0 });
    expect((await api(e.view, { ...as, query: { server_id: doomed.id } })).status).toBe(404);
    const [row] = await app.db.select().from(vpnDevices).where(eq(vpnDevices.id, device.device_id));
    expect(row?.serverId).toBe(light.id);
    expect(row?.serverId).not.toBe(busy.id);
    const config = await api(vpnEndpoints.config, {
      cookie: customer.cookie,
      query: { device_id: device.device_id },
    });
    expect(config.data.device.config_changed_at).not.toBeNull();
    expect(config.data.device.server?.city).toBe('Bergen');
    // Staff's open lists hear it is gone.
    await until(
      () =>
        publish.mock.calls.some(
          ([channel, , data]) =>
            channel === FLEET_STAFF_CHANNEL &&
            (data as { removed: number[] }).removed.includes(doomed.id),
        ),
      'the removal on the staff channel',
    );
    // Its node learns it is retired, with no peers left.
    const peers = await api(nodeEndpoints.peers, { headers: doomed.authorization });
    expect(peers.data).toMatchObject({ retired: true, peers: [] });
    expect(await audited(doomed.id, 'servers.deleted')).toHaveLength(1);
  });

  it('leaves a device without a server when no other takes it, blocked until moved', async () => {
    const only = await createTestServer(app, { country: 'IS', city: 'Reykjavik' });
    const { customer, device } = await customerOn('IS');
    // Every other country's servers are full or elsewhere: make them unavailable to it.
    await app.db
      .update(vpnServers)
      .set({ status: 'maintenance' })
      .where(eq(vpnServers.status, 'online'));
    const removed = await api(e.delete, { ...as, body: { server_id: only.id } });
    expect(removed.data).toEqual({ success: true, moved: 0, stranded: 1 });
    const list = await api(vpnEndpoints.devices, { cookie: customer.cookie });
    expect(list.data.items.find((d) => d.device_id === device.device_id)).toMatchObject({
      server: null,
      enabled: false,
      blocked_by: 'no_server',
    });
  });
});

describe('countries customers see', () => {
  it('hides a country and orders the list, audited', async () => {
    await createTestServer(app, { country: 'FI', city: 'Helsinki' });
    const hidden = await api(e.updateCountry, {
      ...as,
      body: { country_code: 'FI', visible: false, sort: 5 },
    });
    expect(hidden.data.country).toMatchObject({ country_code: 'FI', visible: false, sort: 5 });
    const customer = await signedInUser(app);
    const locations = await api(vpnEndpoints.locations, { cookie: customer.cookie });
    expect(locations.data.items.map((l) => l.country_code)).not.toContain('FI');
    const rows = await app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'servers.country_updated'), eq(auditLog.subjectId, 'FI')));
    expect(rows).toHaveLength(1);
  });
});
