import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customerVpnEndpoints } from '#shared/contracts/admin/customer-vpn.ts';
import { vpnEndpoints as e, VPN_MESSAGES as M } from '#shared/contracts/vpn.ts';
import { renderWireGuardConfig } from '#shared/vpn/wireguard-config.ts';
import {
  auditLog,
  countries,
  entitlements,
  products,
  subscriptions,
  users,
} from '../../db/schema/index.ts';
import { endpointClient } from '../../test/api-client.ts';
import { openShop } from '../../test/billing-kit.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser } from '../../test/test-sessions.ts';
import { createTestServer, grantAccess, wireGuardKeyPair } from '../../test/vpn-kit.ts';
import { fleetSweep } from './fleet-sweep.ts';

// §2 download: a customer's WireGuard devices through the real routes and database.
const { app } = await createTestApp();
const api = endpointClient(app);
const nl = await createTestServer(app, { country: 'NL', city: 'Amsterdam', load: 30 });
await createTestServer(app, { country: 'DE', city: 'Berlin', load: 10 });
const us = await createTestServer(app, { country: 'US', city: 'New York', load: 5 });

async function customer(options: { access?: boolean; country?: string } = {}) {
  let countryId: number | undefined;
  if (options.country) {
    const [row] = await app.db.select().from(countries).where(eq(countries.code, options.country));
    countryId = row?.id;
  }
  const session = await signedInUser(app, countryId ? { countryId } : {});
  if (options.access !== false) await grantAccess(app, session.user.id);
  return session;
}

const add = (
  cookie: string,
  location = 'NL',
  name = 'Laptop',
  publicKey = wireGuardKeyPair().publicKey,
) => api(e.create, { cookie, body: { name, location, public_key: publicKey } });

describe('adding a device', () => {
  it('answers everything of the .conf but the private key, which never reaches us', async () => {
    const { cookie, user } = await customer();
    const keys = wireGuardKeyPair();
    const added = await add(cookie, 'NL', 'Laptop', keys.publicKey);
    expect(added.status, added.text).toBe(201);
    expect(added.data.device).toMatchObject({
      name: 'Laptop',
      location: 'NL',
      enabled: true,
      blocked_by: null,
      server: { country_code: 'NL', city: 'Amsterdam', status: 'online' },
    });
    expect(added.data.config).toEqual({
      address: [
        expect.stringMatching(/^10\.8\.0\.\d+\/32$/),
        expect.stringMatching(/^fd42:42:42::[0-9a-f]+\/128$/),
      ],
      dns: ['10.8.0.1'],
      peer: {
        public_key: nl.keys.publicKey,
        endpoint: expect.stringMatching(/^nl-\d+\.vpn\.example:51820$/),
        allowed_ips: ['0.0.0.0/0', '::/0'],
        persistent_keepalive: 25,
      },
    });
    expect(added.text).not.toContain(keys.privateKey);
    const text = renderWireGuardConfig(added.data.config ?? ({} as never), keys.privateKey);
    expect(text).toContain(`PrivateKey = ${keys.privateKey}`);
    const audit = await app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectId, String(user.id)));
    expect(audit.map((row) => row.action)).toContain('vpn.device_added');
  });

  it('needs VPN access', async () => {
    const { cookie } = await customer({ access: false });
    const answer = await add(cookie);
    expect(answer.status).toBe(403);
    expect(answer.body.errors_info).toEqual([M.noAccess]);
  });

  it('refuses a key that is not 32 bytes of base64, and one any device has', async () => {
    const first = await customer();
    const second = await customer();
    const bad = await add(first.cookie, 'NL', 'Laptop', 'c2hvcnQ=');
    expect(bad.body.errors_validation).toEqual({ public_key: [M.publicKeyInvalid] });
    const keys = wireGuardKeyPair();
    expect((await add(first.cookie, 'NL', 'Laptop', keys.publicKey)).status).toBe(201);
    const taken = await add(second.cookie, 'NL', 'Phone', keys.publicKey);
    expect(taken.status).toBe(422);
    expect(taken.body.errors_validation).toEqual({ public_key: [M.publicKeyTaken] });
  });

  it('gives each of a person’s devices its own name', async () => {
    const { cookie } = await customer();
    expect((await add(cookie, 'NL', 'Phone')).status).toBe(201);
    const again = await add(cookie, 'NL', 'phone');
    expect(again.status).toBe(422);
    expect(again.body.errors_validation).toEqual({ name: [M.nameTaken] });
    const other = await add(cookie, 'NL', 'Tablet');
    const renamed = await api(e.rename, {
      cookie,
      body: { device_id: other.data.device.device_id, name: 'PHONE' },
    });
    expect(renamed.body.errors_validation).toEqual({ name: [M.nameTaken] });
    const same = await api(e.rename, {
      cookie,
      body: { device_id: other.data.device.device_id, name: 'tablet' },
    });
    expect(same.status).toBe(200);
  });

  it('refuses a location without a server taking devices, under the field', async () => {
    const { cookie } = await customer();
    const answer = await add(cookie, 'JP');
    expect(answer.body.errors_validation).toEqual({ location: [M.locationUnavailable] });
  });

  it('places "fastest" in the nearest country with a server, its lightest', async () => {
    const belgian = await customer({ country: 'BE' });
    const near = await add(belgian.cookie, 'fastest');
    expect(near.data.device.server?.country_code).toBe('NL');
    const canadian = await customer({ country: 'CA' });
    const far = await add(canadian.cookie, 'fastest');
    expect(far.data.device.server?.country_code).toBe('US');
    // Without a country of their own, the browser's language region tells.
    const unknown = await customer();
    const german = await api(e.create, {
      cookie: unknown.cookie,
      headers: { 'accept-language': 'de-DE,de;q=0.9' },
      body: { name: 'Tablet', location: 'fastest', public_key: wireGuardKeyPair().publicKey },
    });
    expect(german.data.device.server?.country_code).toBe('DE');
    const locations = await api(e.locations, { cookie: belgian.cookie });
    expect(locations.data.fastest).toEqual({ country_code: 'NL', name: 'Netherlands' });
    expect(locations.data.items.map((l) => l.country_code)).toEqual(
      expect.arrayContaining(['DE', 'NL', 'US']),
    );
  });

  it('never places a device on a server in maintenance', async () => {
    const server = await createTestServer(app, {
      country: 'CH',
      city: 'Zurich',
      status: 'maintenance',
    });
    const { cookie } = await customer();
    const answer = await add(cookie, 'CH');
    expect(answer.body.errors_validation).toEqual({ location: [M.locationUnavailable] });
    expect(server.id).toBeGreaterThan(0);
  });
});

describe('the device limit', () => {
  it('refuses a device past the plan’s limit with a clear message', async () => {
    const { cookie, user } = await customer();
    await app.db
      .update(entitlements)
      .set({ source: 'manual' })
      .where(eq(entitlements.userId, user.id));
    for (let i = 0; i < 10; i += 1)
      expect((await add(cookie, 'NL', `Device ${i}`)).status).toBe(201);
    const eleventh = await add(cookie, 'NL', 'One too many');
    expect(eleventh.status).toBe(409);
    expect(eleventh.body.errors_info).toEqual([M.deviceLimit]);
    const list = await api(e.devices, { cookie });
    expect(list.data.device_limit).toBe(10);
  });

  it('disables the newest devices on a downgrade, and enables them when one is removed', async () => {
    const shop = await openShop(app);
    const session = await signedInUser(app);
    const bought = await shop.buy(session);
    expect(bought.status, bought.text).toBe(200);
    const cookie = session.cookie;
    const ids: number[] = [];
    for (const name of ['Old', 'Middle', 'New']) {
      const added = await add(cookie, 'NL', name);
      expect(added.status, added.text).toBe(201);
      ids.push(added.data.device.device_id);
    }
    const [subscription] = await app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, session.user.id));
    await app.db
      .update(products)
      .set({ deviceLimit: 2 })
      .where(eq(products.id, subscription?.productId ?? 0));
    await fleetSweep(app);
    const limited = await api(e.devices, { cookie });
    expect(limited.data.device_limit).toBe(2);
    expect(limited.data.items.map((d) => [d.name, d.blocked_by])).toEqual([
      ['Old', null],
      ['Middle', null],
      ['New', 'device_limit'],
    ]);
    await api(e.delete, { cookie, body: { device_id: ids[0] ?? 0 } });
    const after = await api(e.devices, { cookie });
    expect(after.data.items.map((d) => [d.name, d.enabled])).toEqual([
      ['Middle', true],
      ['New', true],
    ]);
    await app.db
      .update(products)
      .set({ deviceLimit: 10 })
      .where(eq(products.id, subscription?.productId ?? 0));
  });
});

describe('changing a device', () => {
  it('renames, rekeys in one step, and moves with a new configuration', async () => {
    const { cookie } = await customer();
    const added = await add(cookie, 'NL');
    const id = added.data.device.device_id;
    const renamed = await api(e.rename, { cookie, body: { device_id: id, name: 'Work laptop' } });
    expect(renamed.data.device.name).toBe('Work laptop');

    const fresh = wireGuardKeyPair();
    const rekeyed = await api(e.rekey, {
      cookie,
      body: { device_id: id, public_key: fresh.publicKey },
    });
    expect(rekeyed.data.device.public_key).toBe(fresh.publicKey);
    expect(rekeyed.data.config?.address).toEqual(added.data.config?.address);

    const moved = await api(e.move, {
      cookie,
      body: { device_id: id, location: 'US', public_key: wireGuardKeyPair().publicKey },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.data.device.server?.country_code).toBe('US');
    expect(moved.data.config?.peer.public_key).toBe(us.keys.publicKey);
    expect(moved.data.device.config_changed_at).toBeNull();
    // Moved without a new key: the device is told its configuration changed.
    const back = await api(e.move, { cookie, body: { device_id: id, location: 'NL' } });
    expect(back.data.device.config_changed_at).not.toBeNull();
  });

  it('lets staff see a customer’s devices and remove one, audited', async () => {
    const admin = await signedInUser(app, { role: 'ADMIN' });
    const { cookie, user } = await customer();
    const added = await add(cookie, 'NL', 'Lost phone');
    const view = await api(customerVpnEndpoints.view, {
      cookie: admin.cookie,
      query: { user_id: user.id },
    });
    expect(view.data.items.map((d) => d.name)).toEqual(['Lost phone']);
    const nobody = await api(customerVpnEndpoints.view, {
      cookie: admin.cookie,
      query: { user_id: 2_000_000_000 },
    });
    expect(nobody.status).toBe(404);
    const nobodys = await api(customerVpnEndpoints.deleteDevice, {
      cookie: admin.cookie,
      body: { user_id: 2_000_000_000, device_id: 1 },
    });
    expect(nobodys.status).toBe(404);
    const removed = await api(customerVpnEndpoints.deleteDevice, {
      cookie: admin.cookie,
      body: { user_id: user.id, device_id: added.data.device.device_id },
    });
    expect(removed.status).toBe(200);
    expect((await api(e.devices, { cookie })).data.items).toEqual([]);
    const [row] = await app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'customers.vpn_device_removed'));
    expect(row).toMatchObject({ actorId: admin.user.id, subjectId: String(user.id) });
    // Another customer's device id is as good as none.
    const other = await customer();
    const again = await api(customerVpnEndpoints.deleteDevice, {
      cookie: admin.cookie,
      body: { user_id: other.user.id, device_id: added.data.device.device_id },
    });
    expect(again.status).toBe(404);
    expect(users).toBeDefined();
  });
});
