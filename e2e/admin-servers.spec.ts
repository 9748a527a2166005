import { randomBytes } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { DEMO, signIn } from './support/auth.ts';

// §2 /admin/servers as staff use it, against the demo fleet (~40 servers in 15 countries,
// their nodes simulated through the node API): countries with their counts, showing and
// hiding one, a country's page, the full table filtered, and a server's whole life: added with
// its one-time token, its node enrolling (the status turns live), maintenance, removal.

/** Waits until the page's websocket is open and its channels are joined (§9: 500 ms after). */
async function live(page: Page): Promise<void> {
  await page.waitForEvent('websocket', { predicate: (socket) => socket.url().includes('/app/') });
  await page.waitForTimeout(1_000);
}

test('an admin manages the fleet: countries, a country, the filtered table, and a server from token to removal', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await signIn(page, DEMO.admin.email, DEMO.admin.password);

  // The countries the demo fleet has, with their counts.
  const connected = live(page);
  await page.goto('/en/admin/servers');
  await expect(page).toHaveURL(/\/en\/admin\/servers\/countries$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Countries');
  const table = page.getByRole('table', { name: 'Countries' });
  await expect(table.getByRole('row')).toHaveCount(16);
  const germany = table.getByRole('row').filter({ hasText: 'Germany' });
  await expect(germany.getByRole('cell').nth(1)).toHaveText('4');
  await expect(germany.getByTestId('country-online')).toHaveText('3 of 4');
  await expect(germany.getByRole('cell').nth(3)).toHaveText('3');
  await expect(
    table.getByRole('row').filter({ hasText: 'United States' }).getByTestId('country-online'),
  ).toHaveText('5 of 6');

  // Hide a country from customers and show it again.
  const poland = table.getByRole('switch', { name: 'Show Poland to customers' });
  await expect(poland).toHaveAttribute('aria-checked', 'true');
  await poland.click();
  await expect(poland).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByText('Poland is hidden from customers.')).toBeVisible();
  await page.reload();
  await expect(poland).toHaveAttribute('aria-checked', 'false');
  await poland.click();
  await expect(poland).toHaveAttribute('aria-checked', 'true');

  // A country's page: its place in the customers' list, its cities and their servers.
  await germany.getByRole('link', { name: 'Germany' }).click();
  await expect(page).toHaveURL(/\/en\/admin\/servers\/countries\/DE$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Germany');
  const frankfurt = page.getByRole('table', { name: 'Servers in Frankfurt' });
  await expect(frankfurt.getByRole('button', { name: 'de-frankfurt-1' })).toBeVisible();
  await expect(
    page
      .getByRole('table', { name: 'Servers in Munich' })
      .getByRole('row')
      .filter({ hasText: 'de-munich-1' })
      .getByTestId('server-status'),
  ).toHaveText('Offline');

  // Every server, filtered by status and tag (kept in the URL).
  await page.getByRole('link', { name: 'All servers', exact: true }).first().click();
  await expect(page).toHaveURL(/\/en\/admin\/servers\/all-servers$/);
  await page.getByLabel('Status').selectOption({ label: 'Online' });
  await expect(page).toHaveURL(/status=online/);
  await page.getByLabel('Tag').selectOption('p2p');
  await expect(page).toHaveURL(/status=online&tag=p2p/);
  const servers = page.getByRole('table', { name: 'All servers' });
  await expect(servers.getByRole('button', { name: 'nl-amsterdam-2' })).toBeVisible();
  await expect(servers.getByRole('button', { name: 'de-frankfurt-1' })).toHaveCount(0);
  const rows = servers.locator('tbody tr');
  const count = await rows.count();
  expect(count).toBeGreaterThanOrEqual(5);
  for (let i = 0; i < count; i += 1) {
    await expect(rows.nth(i).getByTestId('server-status')).toHaveText('Online');
    await expect(rows.nth(i)).toContainText('p2p');
  }
  await connected;

  // A new server: its token and the command that starts its node, shown this once.
  const name = `e2e-${Date.now().toString(36)}`;
  await page.goto('/en/admin/servers/all-servers');
  await page.getByRole('button', { name: 'Add server' }).click();
  const form = page.getByRole('dialog', { name: 'New server' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Country').selectOption({ label: 'Finland' });
  await form.getByLabel('City', { exact: true }).fill('Helsinki');
  await form.getByLabel('Endpoint host').fill(`${name}.vpn.test`);
  await form.getByRole('button', { name: 'Add the tag streaming' }).click();
  await form.getByRole('button', { name: 'Add server' }).click();
  const shown = page.getByRole('dialog', { name: `Start the node of ${name}` });
  await expect(shown.getByTestId('token-warning')).toContainText('Shown only once');
  const token = await shown.getByLabel('Enrollment token').inputValue();
  expect(token).toMatch(/^vpnnode_[A-Za-z0-9_-]{43}$/);
  const command = await shown.getByLabel('Start the node').inputValue();
  expect(command).toMatch(
    new RegExp(
      `^VPN_NODE_API_URL=\\S+ VPN_NODE_TOKEN=${token} VPN_NODE_INTERFACE=wg0 VPN_NODE_STATE_DIR=/var/lib/vpn-node npm run vpn-node$`,
    ),
  );
  await expect(shown.getByLabel('Set up the interface (as root, once)')).toHaveValue(
    /^ip link add wg0 type wireguard\nip address add 10\.8\.0\.1\/16 dev wg0\nip address add fd42:42:42::1\/64 dev wg0\nip link set wg0 up$/,
  );
  await shown.getByRole('button', { name: 'Done, I have copied it' }).click();
  const detail = page.getByRole('dialog', { name });
  await expect(detail.getByTestId('server-public-key')).toHaveText(
    'Waiting for the node to enroll',
  );
  await detail.getByRole('button', { name: 'Close' }).click();
  await page.getByLabel('Search by name, host or city').fill(name);
  const row = servers.getByRole('row').filter({ hasText: name });
  await expect(row.getByTestId('server-status')).toHaveText('New');

  // Its node enrolls with that token: the status turns without a reload.
  const publicKey = randomBytes(32).toString('base64');
  const enrolled = await fetch(`${baseURL}/api/node/v1/enroll`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ public_key: publicKey, agent_version: 'e2e' }),
  });
  expect(enrolled.status).toBe(200);
  await expect(row.getByTestId('server-status')).toHaveText('Online', { timeout: 5_000 });
  await row.getByRole('button', { name }).click();
  await expect(detail.getByTestId('server-public-key')).toHaveText(publicKey);
  await expect(detail).toContainText('e2e');

  // Changed in its form: a capacity and a tag more, kept.
  await detail.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: `Change ${name}` });
  await expect(edit.getByLabel('Name')).toHaveValue(name);
  await edit.getByLabel('Capacity (devices)').fill('750');
  await edit.getByRole('button', { name: 'Add the tag p2p' }).click();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(detail).toBeVisible();
  await expect(detail).toContainText('750');
  await detail.getByRole('button', { name: 'Close' }).click();
  await expect(row).toContainText('p2p');
  await row.getByRole('button', { name }).click();

  // Maintenance: no new devices go there.
  await detail.getByRole('button', { name: 'Put in maintenance' }).click();
  await expect(detail.getByTestId('server-status')).toHaveText('Maintenance');
  await detail.getByRole('button', { name: 'Close' }).click();
  await expect(row.getByTestId('server-status')).toHaveText('Maintenance');

  // Removal, after a confirmation that says what happens to its devices.
  await row.getByRole('button', { name }).click();
  await detail.getByRole('button', { name: 'Remove', exact: true }).click();
  const question = page.getByRole('dialog', { name: `Remove ${name}?` });
  // While it was online it was the lightest server in the fleet, so a device that a journey
  // beside this one added for `fastest` may have landed on it; maintenance keeps the count fixed.
  await expect(question).toContainText(
    /No devices are on it|will move to another server in Finland/,
  );
  const text = (await question.textContent()) ?? '';
  const onIt = /No devices are on it/.test(text)
    ? 0
    : Number(/(\d+) devices? will move/.exec(text)?.[1]);
  expect(onIt).toBeGreaterThanOrEqual(0);
  await question.getByRole('button', { name: 'Remove server' }).click();
  await expect(
    page.getByText(`${name} removed. Devices moved: ${onIt}; left without a server: 0.`),
  ).toBeVisible();
  await expect(page.getByText('Nothing matches')).toBeVisible();
  // Its token is refused from now on.
  const after = await fetch(`${baseURL}/api/node/v1/enroll`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ public_key: publicKey, agent_version: 'e2e' }),
  });
  expect(after.status).toBeGreaterThanOrEqual(400);
});

test('the customer page shows the demo customer’s VPN: usage and both devices', async ({
  page,
}) => {
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await page.goto('/en/admin/customers');
  await page.getByLabel('Search by e-mail, name or username').fill('customer@');
  await expect(page).toHaveURL(/search=customer/);
  await page.getByRole('link', { name: DEMO.customer.email }).click();
  await expect(page).toHaveURL(/\/en\/admin\/customers\/\d+$/);
  const panel = page.getByRole('region', { name: 'VPN' });
  await expect(panel.getByTestId('vpn-usage')).toContainText('GB');
  const laptop = panel.getByRole('row').filter({ hasText: 'Laptop' });
  const phone = panel.getByRole('row').filter({ hasText: 'Phone' });
  await expect(laptop).toContainText('Fastest');
  await expect(laptop).toContainText('nl-amsterdam-1');
  await expect(phone).toContainText('United States');
  await expect(phone).toContainText('us-new-york-1');
  await expect(panel.getByTestId('vpn-device-limit')).toHaveText(/^2 of \d+ allowed$/);
});

test('the servers list groups the fleet by country and filters it by status', async ({ page }) => {
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await page.goto('/en/admin/servers/servers-list');
  const netherlands = page.getByTestId('country-group').filter({
    has: page.getByRole('heading', { name: 'Netherlands' }),
  });
  await expect(netherlands.getByTestId('server-line')).toHaveCount(4);
  await expect(netherlands).toContainText('nl-amsterdam-3');

  await page.getByLabel('Status').selectOption({ label: 'Maintenance' });
  await expect(page).toHaveURL(/status=maintenance/);
  const lines = page.getByTestId('server-line');
  await expect(lines.filter({ hasText: 'nl-amsterdam-3' })).toHaveCount(1);
  await expect(lines.filter({ hasText: 'ch-geneva-1' })).toHaveCount(1);
  await expect(lines.filter({ hasText: 'nl-amsterdam-1' })).toHaveCount(0);

  await netherlands.getByRole('link', { name: 'Netherlands' }).click();
  await expect(page).toHaveURL(/\/en\/admin\/servers\/countries\/NL$/);
  await expect(page.getByRole('heading', { level: 1, name: /Netherlands/ })).toBeVisible();
});

test('an author gets page-not-found on the servers', async ({ page }) => {
  await signIn(page, DEMO.author.email, DEMO.author.password);
  await page.goto('/en/admin/servers/countries');
  await expect(page).toHaveURL('/en/page-not-found');
});

for (const [label, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['mobile', { width: 390, height: 844 }],
] as const) {
  test(`screenshots of the fleet's screens at ${label} width`, async ({ page }) => {
    test.setTimeout(60_000);
    await page.setViewportSize(viewport);
    await signIn(page, DEMO.admin.email, DEMO.admin.password);
    const shots: [string, string][] = [
      ['servers-countries', '/en/admin/servers/countries'],
      ['servers-country', '/en/admin/servers/countries/DE'],
      ['servers-all', '/en/admin/servers/all-servers'],
      ['servers-list', '/en/admin/servers/servers-list'],
    ];
    const shoot = async (name: string) => {
      // Nothing wider than the screen: a phone never scrolls sideways.
      await expect
        .poll(() => page.evaluate('document.documentElement.scrollWidth - window.innerWidth'), {
          message: name,
        })
        .toBeLessThanOrEqual(0);
      const file = test.info().outputPath(`${name}-${label}.png`);
      await page.screenshot({ path: file, fullPage: true });
      await test.info().attach(`${name}-${label}`, { path: file });
    };
    for (const [name, path] of shots) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('status')).toHaveCount(0);
      await shoot(name);
    }
    // One server's dialog, over the list.
    await page.getByRole('button', { name: 'de-frankfurt-1' }).click();
    await expect(page.getByRole('dialog', { name: 'de-frankfurt-1' })).toBeVisible();
    await shoot('servers-dialog');
    await page.goto('/en/admin/customers/3');
    await expect(page.getByRole('region', { name: 'VPN' }).getByRole('table')).toBeVisible({
      timeout: 15_000,
    });
    await page.getByRole('region', { name: 'VPN' }).scrollIntoViewIfNeeded();
    await shoot('customer-vpn');
  });
}
