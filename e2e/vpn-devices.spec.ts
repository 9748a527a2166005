import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { DEMO, registerVerifiedUser, signIn } from './support/auth.ts';
import { scanQr } from './support/authenticator.ts';

// §2 download: the demo customer opens it from the menu, sees the demo devices and the
// period's traffic, adds a device in a country and takes its configuration (text, QR code,
// file), renames it, moves it (a new configuration), finds it on the security page and
// removes it; a customer without a plan cannot add one. The key pair is made in the page:
// the check here is that the downloaded file's private key, made into its public key by
// Node's own X25519, is the key the server lists for the device.

// The journeys change the demo customer's devices: one after the other, never beside each other.
test.describe.configure({ mode: 'serial' });

/** RFC 8410's PKCS #8 prefix of a raw X25519 private key. */
const PKCS8_X25519 = Buffer.from('302e020100300506032b656e04220420', 'hex');

/** The WireGuard public key of a WireGuard private key (both base64), by node:crypto. */
function publicKeyOf(privateKey: string): string {
  const key = createPrivateKey({
    key: Buffer.concat([PKCS8_X25519, Buffer.from(privateKey, 'base64')]),
    format: 'der',
    type: 'pkcs8',
  });
  return createPublicKey(key)
    .export({ type: 'spki', format: 'der' })
    .subarray(-32)
    .toString('base64');
}

/** `Key = value` lines of a `.conf`, by section. */
function parseConf(text: string): Record<string, Record<string, string>> {
  const sections: Record<string, Record<string, string>> = {};
  let current: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const section = /^\[(\w+)\]$/.exec(line.trim());
    if (section?.[1]) {
      current = {};
      sections[section[1]] = current;
      continue;
    }
    const pair = /^(\w+) = (.+)$/.exec(line.trim());
    if (pair?.[1] && pair[2]) current[pair[1]] = pair[2];
  }
  return sections;
}

/** A screenshot; a dialog is taken as the screen shows it (its overlay covers the screen only). */
async function shoot(page: Page, name: string, fullPage = true): Promise<void> {
  // Nothing wider than the screen: a phone never scrolls sideways.
  await expect
    .poll(() => page.evaluate('document.documentElement.scrollWidth - window.innerWidth'), {
      message: name,
    })
    .toBeLessThanOrEqual(0);
  const file = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage });
  await test.info().attach(name, { path: file });
}

/** Chooses a location in the dialog's picker by the start of its name. */
async function chooseLocation(dialog: Locator, country: string): Promise<void> {
  const picker = dialog.getByRole('combobox', { name: 'Location' });
  await expect(picker).toBeEnabled();
  await picker.click();
  await dialog.getByRole('option', { name: new RegExp(`^${country}`) }).click();
  await expect(picker).toHaveText(country);
}

const device = (page: Page, name: string) =>
  page.getByTestId('vpn-device').filter({ has: page.getByRole('heading', { name }) });

async function listedPublicKey(page: Page, name: string): Promise<string> {
  const item = device(page, name);
  const value = item
    .locator('dt', { hasText: 'Public key' })
    .locator('xpath=following-sibling::dd');
  return (await value.textContent())?.trim() ?? '';
}

test('the demo customer adds a WireGuard device, takes its configuration, renames, moves and removes it', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, DEMO.customer.email, DEMO.customer.password);
  await page.goto('/en/dashboard');
  await page.getByTestId('aside').getByRole('link', { name: 'Download', exact: true }).click();
  await expect(page).toHaveURL(/\/en\/download$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Download' })).toBeVisible();

  const panel = page.getByRole('region', { name: 'WireGuard devices' });
  await expect(device(page, 'Laptop')).toBeVisible();
  await expect(device(page, 'Phone')).toBeVisible();
  await expect(panel.getByTestId('vpn-device-count')).toHaveText('2 of 10 devices');
  await expect(panel.getByTestId('vpn-usage')).toContainText(/ used/);
  await expect(panel.getByTestId('vpn-usage')).toContainText(/Resets on /);
  await expect(device(page, 'Laptop')).toContainText(/received, .* sent/);
  await expect(page.getByRole('region', { name: 'Apps' })).toContainText(
    'Our own apps are not ready yet.',
  );
  await shoot(page, 'download-desktop');

  // Add a device in a country.
  await panel.getByRole('button', { name: 'Add device' }).click();
  const add = page.getByRole('dialog', { name: 'Add a device' });
  await add.getByLabel('Device name').fill('E2E Tablet');
  await chooseLocation(add, 'Germany');
  await add.getByRole('button', { name: 'Add device' }).click();

  const config = page.getByRole('dialog', { name: 'Configuration for E2E Tablet' });
  const text = config.getByTestId('vpn-config-text');
  await expect(text).toBeVisible();
  await expect(config).toContainText('This configuration cannot be shown again');
  const conf = await text.inputValue();
  const qr = config.getByRole('img', {
    name: 'QR code of the WireGuard configuration for E2E Tablet',
  });
  await expect(qr).toBeVisible();
  expect(await scanQr(qr)).toBe(conf);
  await shoot(page, 'download-config-desktop', false);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    config.getByRole('button', { name: 'Download E2E-Tablet.conf' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('E2E-Tablet.conf');
  const file = await readFile(await download.path());
  const fileText = file.toString('utf8');
  expect(fileText).toBe(conf);
  const parsed = parseConf(fileText);
  const iface = parsed.Interface ?? {};
  const peer = parsed.Peer ?? {};
  expect(iface.PrivateKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  expect(iface.Address).toMatch(/^10\.\d+\.\d+\.\d+\/32/);
  expect(iface.DNS).toBeTruthy();
  expect(peer.PublicKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  expect(peer.Endpoint).toMatch(/^de-[\w.-]+:\d+$/);
  expect(peer.AllowedIPs).toBe('0.0.0.0/0, ::/0');
  expect(peer.PersistentKeepalive).toBe('25');
  const privateKey = iface.PrivateKey ?? '';

  await config.getByRole('button', { name: 'Done' }).click();
  await expect(config).toHaveCount(0);
  await expect(device(page, 'E2E Tablet')).toContainText('Germany');
  await expect(panel.getByTestId('vpn-device-count')).toHaveText('3 of 10 devices');
  // The key made in the page is the one the server has: only the public key was sent.
  expect(publicKeyOf(privateKey)).toBe(await listedPublicKey(page, 'E2E Tablet'));
  await expect(page.locator('body')).not.toContainText(privateKey);

  // Rename.
  await page.getByRole('button', { name: 'Rename E2E Tablet' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename E2E Tablet' });
  await rename.getByLabel('Device name').fill('E2E Slate');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(rename).toHaveCount(0);
  await expect(device(page, 'E2E Slate')).toBeVisible();

  // Move: a new key pair, so a complete new configuration.
  await page.getByRole('button', { name: 'Move E2E Slate', exact: true }).click();
  const move = page.getByRole('dialog', { name: 'Move E2E Slate' });
  await chooseLocation(move, 'France');
  await move.getByRole('button', { name: 'Move device' }).click();
  const moved = page.getByRole('dialog', { name: 'Configuration for E2E Slate' });
  const movedConf = parseConf(await moved.getByTestId('vpn-config-text').inputValue());
  expect(movedConf.Peer?.Endpoint).toMatch(/^fr-[\w.-]+:\d+$/);
  const movedKey = movedConf.Interface?.PrivateKey ?? '';
  expect(movedKey).not.toBe(privateKey);
  await expect(moved.getByRole('img', { name: /QR code/ })).toBeVisible();
  await moved.getByRole('button', { name: 'Done' }).click();
  await expect(device(page, 'E2E Slate')).toContainText('France');
  expect(publicKeyOf(movedKey)).toBe(await listedPublicKey(page, 'E2E Slate'));

  // A new key, after the question: same place, a new pair, the old key gone from the server.
  await page.getByRole('button', { name: 'New key for E2E Slate' }).click();
  await page
    .getByRole('dialog', { name: 'New key for E2E Slate?' })
    .getByRole('button', { name: 'Make a new key' })
    .click();
  const rekeyed = page.getByRole('dialog', { name: 'Configuration for E2E Slate' });
  const rekeyedConf = parseConf(await rekeyed.getByTestId('vpn-config-text').inputValue());
  expect(rekeyedConf.Peer?.Endpoint).toBe(movedConf.Peer?.Endpoint);
  const rekeyedKey = rekeyedConf.Interface?.PrivateKey ?? '';
  expect(rekeyedKey).not.toBe(movedKey);
  await rekeyed.getByRole('button', { name: 'Done' }).click();
  expect(publicKeyOf(rekeyedKey)).toBe(await listedPublicKey(page, 'E2E Slate'));

  // The security page lists it with the browsers.
  await page.goto('/en/account/security');
  const vpnGroup = page.getByRole('region', { name: 'VPN devices' });
  await expect(vpnGroup.getByTestId('vpn-device').filter({ hasText: 'E2E Slate' })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Browsers' }).getByTestId('device').first(),
  ).toBeVisible();
  await shoot(page, 'security-desktop');

  // Removed from the download page after a confirmation.
  await vpnGroup.getByRole('link', { name: 'Manage VPN devices' }).click();
  await expect(page).toHaveURL(/\/en\/download$/);
  await page.getByRole('button', { name: 'Remove E2E Slate' }).click();
  const remove = page.getByRole('dialog', { name: 'Remove E2E Slate?' });
  await remove.getByRole('button', { name: 'Remove' }).click();
  await expect(device(page, 'E2E Slate')).toHaveCount(0);
  await expect(panel.getByTestId('vpn-device-count')).toHaveText('2 of 10 devices');

  // The dashboard's card says the same.
  await page.goto('/en/dashboard');
  await expect(
    page.getByRole('region', { name: 'VPN devices' }).getByTestId('dashboard-vpn-devices'),
  ).toHaveText('2 of 10 devices');
});

test('a customer without a plan sees why no device can be added', async ({ page, request }) => {
  const account = await registerVerifiedUser(request, 'vpn-no-plan');
  await signIn(page, account.email, account.password);
  await page.goto('/en/download');
  const panel = page.getByRole('region', { name: 'WireGuard devices' });
  const notice = panel.getByTestId('vpn-no-access');
  await expect(notice).toContainText('No VPN access');
  await expect(notice.getByRole('link', { name: 'Choose a plan' })).toHaveAttribute(
    'href',
    '/en/billing/order-v2',
  );
  await expect(panel.getByText('No devices yet')).toBeVisible();
  const add = panel.getByRole('button', { name: 'Add device' });
  await expect(add).toBeDisabled();
  await expect(add).toHaveAccessibleDescription('You need VPN access to add a device.');
});

for (const [label, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['mobile', { width: 390, height: 844 }],
] as const) {
  test(`screenshots of the download page, a configuration and the dashboard at ${label} width`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signIn(page, DEMO.customer.email, DEMO.customer.password);
    await page.goto('/en/download');
    await expect(device(page, 'Laptop')).toBeVisible();
    await expect(page.getByRole('status')).toHaveCount(0);
    await shoot(page, `download-list-${label}`);

    await page.getByRole('button', { name: 'Add device' }).click();
    const add = page.getByRole('dialog', { name: 'Add a device' });
    await add.getByLabel('Device name').fill(`Shot ${label}`);
    await expect(add.getByRole('combobox', { name: 'Location' })).toBeEnabled();
    await add.getByRole('combobox', { name: 'Location' }).click();
    await shoot(page, `download-add-${label}`, false);
    await add.getByRole('option', { name: /^Netherlands/ }).click();
    await add.getByRole('button', { name: 'Add device' }).click();
    const config = page.getByRole('dialog', { name: `Configuration for Shot ${label}` });
    await expect(config.getByRole('img', { name: /QR code/ })).toBeVisible();
    await shoot(page, `download-config-${label}`, false);
    await config.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: `Remove Shot ${label}` }).click();
    await page
      .getByRole('dialog', { name: `Remove Shot ${label}?` })
      .getByRole('button', { name: 'Remove' })
      .click();
    await expect(device(page, `Shot ${label}`)).toHaveCount(0);

    await page.goto('/en/dashboard');
    await expect(page.getByTestId('dashboard-vpn-devices')).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await shoot(page, `dashboard-${label}`);
  });
}
