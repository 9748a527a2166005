import { expect, test } from '@playwright/test';
import * as client from 'openid-client';
import { newCustomerOnOrderPage, payFor, TEST_CARDS } from './support/billing.ts';

// Issue 24 as a customer with a TV meets it: the TV's app (here the test process, with the
// official OpenID client) asks for a code and polls while its person, signed in on a
// computer, confirms the code at /{lang}/device and names the TV; the app then gets its
// tokens and adds its WireGuard device with them. Signing the TV out on the security page
// ends its tokens and removes its device.

test('a TV signs in with the device flow and adds its WireGuard device', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await newCustomerOnOrderPage(page, request, 'tv');
  await payFor(page, /^1 month/, TEST_CARDS.visa);
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();

  // The TV: the demo's first-party client for devices without a browser.
  const tv = await client.discovery(
    new URL(String(baseURL)),
    'shieldline-tv',
    undefined,
    client.None(),
    { execute: [client.allowInsecureRequests] },
  );
  const started = await client.initiateDeviceAuthorization(tv, {
    scope: 'openid offline_access vpn',
  });
  expect(started.verification_uri).toBe(`${baseURL}/device`);
  const polled = client.pollDeviceAuthorizationGrant(tv, started);

  // Its person follows the QR code's address on the computer.
  await page.goto(String(started.verification_uri_complete));
  await expect(page).toHaveURL(/\/en\/device\?user_code=/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Sign in Shieldline for TV and routers?',
  );
  await expect(page.getByTestId('scope-list')).toContainText(
    'add, list and remove its VPN devices',
  );
  await page.getByLabel('Device name').fill('Living-room TV');
  await page.getByRole('button', { name: 'Sign in the device' }).click();
  await expect(page.getByTestId('device-done')).toHaveText(
    'Living-room TV is signed in. You can go back to it now.',
  );

  // The TV's poll is answered; it makes its key pair and adds its device with its token.
  const tokens = await polled;
  const publicKey = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64');
  const created = await request.post('/api/account/v1/vpn/devices/create', {
    headers: { authorization: `Bearer ${tokens.access_token}` },
    data: { name: 'TV', location: 'fastest', public_key: publicKey },
  });
  expect(created.status()).toBe(201);
  await page.goto('/en/download');
  await expect(page.getByText('TV', { exact: true })).toBeVisible();

  // The code cannot be confirmed twice.
  await page.goto(`/en/device?user_code=${encodeURIComponent(started.user_code)}`);
  await expect(page.getByText('This code has already been used.')).toBeVisible();

  // The customer signs the TV out on the security page: its device goes, its refresh fails.
  await page.goto('/en/account/security');
  const apps = page.getByRole('region', { name: 'Connected apps' });
  await expect(apps.getByTestId('connected-app')).toHaveCount(1);
  await expect(apps.getByTestId('connected-app')).toContainText(
    'Shieldline for TV and routers · Living-room TV',
  );
  await apps.getByRole('button', { name: 'Sign out Shieldline for TV and routers' }).click();
  await page
    .getByRole('dialog', { name: 'Sign out Shieldline for TV and routers?' })
    .getByRole('button', { name: 'Sign out' })
    .click();
  await expect(apps.getByText('No app is signed in with your account.')).toBeVisible();
  const refused = await client.refreshTokenGrant(tv, String(tokens.refresh_token)).then(
    () => 'refreshed',
    (error: { error?: string }) => error.error,
  );
  expect(refused).toBe('invalid_grant');
  await page.goto('/en/download');
  await expect(page.getByText('TV', { exact: true })).toHaveCount(0);
});
