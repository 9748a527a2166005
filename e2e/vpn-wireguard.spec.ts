import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import pg from 'pg';
import type { AdminServer, ServerWithTokenResponse } from '#shared/contracts/admin/servers.ts';
import type { DevicesResponse } from '#shared/contracts/vpn.ts';
import { hashPassword } from '../server/modules/identity/password.ts';
import { stopChild } from '../server/test/server-process.ts';
import { servicesRequired } from '../server/test/service-rule.ts';
import { until } from '../server/test/wait-until.ts';
import { registerVerifiedUser, signIn } from './support/auth.ts';
import {
  createDatabase,
  type ServerProcess,
  startServerProcess,
  testServices,
} from './support/server-processes.ts';
import { createWireGuardLab, missingTools, type WireGuardLab } from './support/wireguard-lab.ts';

// The VPN on real WireGuard (the "Real WireGuard in the tests"): a server namespace
// with wireguard-go driven by the real node agent (`vpn-node/main.ts`, in the root namespace,
// talking to a real server process on its own PostgreSQL database), and a client namespace
// set up from the `.conf` the customer downloaded in the browser. Needs root (network
// namespaces) and the Debian packages scripts/test.sh installs; CI runs it as root.

const found = testServices();
const missing = await missingTools();
// Under `npm test` and in CI a missing tool or service fails the journey (beforeAll says
// which), never skips it: a skip there would leave the tunnel untested unnoticed.
test.skip(
  !servicesRequired() && ('missing' in found || missing !== undefined),
  `skipped: ${'missing' in found ? found.missing : missing}`,
);
test.describe.configure({ mode: 'serial' });

const API = { 'x-requested-with': 'fetch' };
const ADMIN = {
  email: `wg-admin-${randomBytes(3).toString('hex')}@example.com`,
  password: 'Admin#2024pass',
};
const TUNNEL = { v4: '10.77.0.0/24', v6: 'fd77:77:77::/64', server: '10.77.0.1' };

let server: ServerProcess | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
let db: pg.Client | undefined;
let lab: WireGuardLab | undefined;
let agent: ChildProcess | undefined;
let stateDir: string | undefined;
let serverId = 0;
let token = '';

function startAgent(): ChildProcess {
  if (!server || !lab || !stateDir) throw new Error('the lab is not up');
  // node itself (not npm): the PID kept is the agent's, so SIGTERM reaches it.
  const child = spawn(process.execPath, ['--import', 'tsx', 'vpn-node/main.ts'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      VPN_NODE_API_URL: server.url,
      VPN_NODE_TOKEN: token,
      VPN_NODE_INTERFACE: lab.serverInterface,
      VPN_NODE_STATE_DIR: stateDir,
      VPN_NODE_LOG_LEVEL: 'warn',
    },
  });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[vpn-node] ${chunk}`));
  return child;
}

async function apiAs(email: string, password: string): Promise<APIRequestContext> {
  const { request } = await import('@playwright/test');
  const context = await request.newContext({ baseURL: server?.url });
  const signedIn = await context.post('/api/public/v1/auth/sign-in', {
    headers: API,
    data: { email, password },
  });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  return context;
}

async function json<T = unknown>(
  response: Awaited<ReturnType<APIRequestContext['get']>>,
): Promise<T> {
  expect(response.status(), await response.text()).toBeLessThan(300);
  return (await response.json()) as T;
}

test.beforeAll(async () => {
  if ('missing' in found)
    throw new Error(`${found.missing}: the WireGuard journey needs PostgreSQL`);
  if (missing) throw new Error(`the WireGuard journey cannot run: ${missing}`);
  test.setTimeout(180_000);
  const database = await createDatabase(found.services.databaseUrl);
  dropDatabase = database.drop;
  // Reports every second: the journey waits for usage a second at a time, not ten.
  server = await startServerProcess({ DATABASE_URL: database.url, VPN_REPORT_INTERVAL_MS: '1000' });
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
  await db.query(
    `INSERT INTO users (email, username, name, password_hash, email_verified_at, role)
     VALUES ($1, $2, 'Lab Admin', $3, now(), 'ADMIN')`,
    [
      ADMIN.email,
      ADMIN.email.split('@')[0]?.replaceAll('-', '_'),
      await hashPassword(ADMIN.password),
    ],
  );
  lab = await createWireGuardLab();
  stateDir = await mkdtemp(join(tmpdir(), 'vpn-node-e2e-'));

  const admin = await apiAs(ADMIN.email, ADMIN.password);
  const created = await json<ServerWithTokenResponse>(
    await admin.post('/api/dashboard/v1/servers/create', {
      headers: API,
      data: {
        name: `lab-${lab.serverInterface}`,
        country_code: 'IS',
        city: 'Reykjavik',
        endpoint_host: lab.serverAddress,
        endpoint_port: 51820,
        ipv4_pool: TUNNEL.v4,
        ipv6_pool: TUNNEL.v6,
        dns: [TUNNEL.server],
      },
    }),
  );
  const detail = created.server;
  serverId = detail.server_id;
  token = created.enrollment_token;
  await lab.upServer(detail.interface_addresses);
  agent = startAgent();
  await until(
    async () => {
      const view = await json<{ server: AdminServer }>(
        await admin.get(`/api/dashboard/v1/servers/view?server_id=${serverId}`),
      );
      return view.server.status === 'online';
    },
    'the node to enroll and its server to be online',
    30_000,
  );
  await admin.dispose();
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  if (agent) await stopChild(agent);
  await lab?.destroy();
  await db?.end();
  await server?.stop();
  await dropDatabase?.();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

/** The customer's device as the API lists it. */
async function deviceOf(customer: APIRequestContext, publicKey: string) {
  const list = await json<DevicesResponse>(await customer.get('/api/account/v1/vpn/devices'));
  return { device: list.items.find((d) => d.public_key === publicKey), usage: list.usage };
}

/** The device's bytes in the API are exactly what the server's interface counted. */
async function usageMatchesInterface(
  customer: APIRequestContext,
  publicKey: string,
): Promise<boolean> {
  const peer = (await lab?.serverPeers())?.get(publicKey);
  const { device } = await deviceOf(customer, publicKey);
  return (
    !!peer && !!device && peer.rx > 0 && device.rx_bytes === peer.rx && device.tx_bytes === peer.tx
  );
}

async function addDeviceInBrowser(page: Page, name: string): Promise<string> {
  await page.goto('/en/download');
  const panel = page.getByRole('region', { name: 'WireGuard devices' });
  await panel.getByRole('button', { name: 'Add device' }).click();
  const add = page.getByRole('dialog', { name: 'Add a device' });
  await add.getByLabel('Device name').fill(name);
  await add.getByRole('combobox', { name: 'Location' }).click();
  await add.getByRole('option', { name: /^Iceland/ }).click();
  await add.getByRole('button', { name: 'Add device' }).click();
  const config = page.getByRole('dialog', { name: `Configuration for ${name}` });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    config.getByRole('button', { name: /^Download .*\.conf$/ }).click(),
  ]);
  const file = await download.path();
  const text = await readFile(file, 'utf8');
  await config.getByRole('button', { name: 'Done' }).click();
  return text;
}

test('a device added in the browser connects over real WireGuard; usage, limits and removal reach the node', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  if (!server || !lab || !db) throw new Error('the lab is not up');
  const customerAccount = await (async () => {
    const { request } = await import('@playwright/test');
    const context = await request.newContext({ baseURL: server?.url });
    try {
      return await registerVerifiedUser(context, 'wg-customer');
    } finally {
      await context.dispose();
    }
  })();
  const [{ id: userId }] = (
    await db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [customerAccount.email])
  ).rows as [{ id: number }];
  // The customer's plan, as the ledger holds one (billing's journeys buy theirs).
  await db.query(
    `INSERT INTO entitlements (user_id, source, source_ref, starts_at, ends_at)
     VALUES ($1, 'manual', 'staff:wireguard-journey', now() - interval '1 minute', now() + interval '30 days')`,
    [userId],
  );
  const context = await browser.newContext({ baseURL: server.url, acceptDownloads: true });
  const page = await context.newPage();
  const customer = await apiAs(customerAccount.email, customerAccount.password);
  const admin = await apiAs(ADMIN.email, ADMIN.password);
  try {
    await signIn(page, customerAccount.email, customerAccount.password);
    const conf = await addDeviceInBrowser(page, 'Lab laptop');
    expect(conf).toContain(`Endpoint = ${lab.serverAddress}:51820`);

    // The client namespace from the downloaded file: a handshake, and pings through the tunnel.
    await lab.upClient(conf);
    const publicKey = await (async () => {
      const list = await json<DevicesResponse>(await customer.get('/api/account/v1/vpn/devices'));
      const device = list.items.find((d) => d.name === 'Lab laptop');
      if (!device) throw new Error('the device is not listed');
      return device.public_key;
    })();
    await until(() => lab?.ping(TUNNEL.server) ?? false, 'a ping through the tunnel', 15_000);
    expect(await lab.clientHandshake()).toBeGreaterThan(0);

    // The bytes the server's interface counted are the customer's usage in the API.
    await until(() => usageMatchesInterface(customer, publicKey), 'the usage in the API', 15_000);
    const { usage } = await deviceOf(customer, publicKey);
    expect(usage.used_bytes).toBeGreaterThan(0);

    // The agent stopped for a while: traffic goes on, and none of it is lost when it is back.
    if (agent) await stopChild(agent);
    expect(await lab.ping(TUNNEL.server, { count: 20, size: 1_000 })).toBe(true);
    const counted = (await lab.serverPeers()).get(publicKey);
    agent = startAgent();
    await until(
      async () =>
        (await usageMatchesInterface(customer, publicKey)) &&
        ((await deviceOf(customer, publicKey)).device?.rx_bytes ?? 0) >= (counted?.rx ?? 0),
      'every byte counted while the agent was stopped',
      20_000,
    );

    // A traffic limit reached cuts the tunnel: staff set 1 GB, the customer has used nearly
    // all of it this period (set here, rather than sending a gigabyte through the lab).
    await json(
      await admin.post('/api/dashboard/v1/users/update-traffic-limit', {
        headers: API,
        data: { user_id: userId, traffic_limit: 1 },
      }),
    );
    await until(
      async () =>
        (
          await db?.query(
            'SELECT 1 FROM vpn_accounts WHERE user_id = $1 AND limit_bytes = 1000000000',
            [userId],
          )
        )?.rowCount === 1,
      'the limit applied by the fleet sweep',
      20_000,
    );
    await db.query(
      'UPDATE vpn_accounts SET period_rx = 999990000, period_tx = 0 WHERE user_id = $1',
      [userId],
    );
    await lab.ping(TUNNEL.server, { count: 10, size: 1_200 });
    await until(
      async () => !(await lab?.serverPeers())?.has(publicKey),
      'the peer off the node',
      15_000,
    );
    expect(await lab.ping(TUNNEL.server, { count: 2 })).toBe(false);
    await page.goto('/en/download');
    await expect(page.getByText(/Traffic limit reached/).first()).toBeVisible();

    // Lifted: the peer is back and the tunnel works again.
    await json(
      await admin.post('/api/dashboard/v1/users/update-traffic-limit', {
        headers: API,
        data: { user_id: userId, traffic_limit: null },
      }),
    );
    await until(
      async () => (await lab?.serverPeers())?.has(publicKey) ?? false,
      'the peer back',
      20_000,
    );
    await until(() => lab?.ping(TUNNEL.server) ?? false, 'the tunnel back', 15_000);

    // Removing the device in the browser ends it on the node within 5 s.
    await page.goto('/en/download');
    await page.getByRole('button', { name: 'Remove Lab laptop' }).click();
    const remove = page.getByRole('dialog', { name: 'Remove Lab laptop?' });
    await remove.getByRole('button', { name: 'Remove' }).click();
    const removedAt = Date.now();
    await until(async () => !(await lab?.serverPeers())?.has(publicKey), 'the peer removed', 5_000);
    expect(await lab.ping(TUNNEL.server, { count: 2 })).toBe(false);
    expect(Date.now() - removedAt).toBeLessThan(5_000);
  } finally {
    await customer.dispose();
    await admin.dispose();
    await context.close();
  }
});
