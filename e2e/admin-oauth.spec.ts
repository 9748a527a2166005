import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import * as client from 'openid-client';
import { DEMO, registerVerifiedUser, signIn, submitSignIn } from './support/auth.ts';

// §2 /admin/oauth as staff use it (issue 24): an admin adds a partner's app and copies its
// secret once; the partner's server (openid-client, here in the test process) signs a
// customer in through our consent screen and reads who they are; the admin disables the app
// and its refresh is refused. Then Google's settings, saved and never shown back.

/** The partner's redirect URI: a small server that only notes where the browser came back. */
async function partnerCallback(): Promise<{ server: Server; url: string; landed: Promise<URL> }> {
  let arrived: (url: URL) => void = () => {};
  const landed = new Promise<URL>((resolve) => {
    arrived = resolve;
  });
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
    if (url.pathname === '/callback') arrived(url);
    response.writeHead(200, { 'content-type': 'text/plain' }).end('Partner signed in');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/callback`, landed };
}

test('an admin adds a client, a relying party signs a customer in with it, and disabling it ends its refresh', async ({
  page,
  browser,
  baseURL,
  request,
}) => {
  test.slow();
  const partner = await partnerCallback();
  try {
    const name = `Partner portal ${Date.now().toString(36)}`;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, DEMO.admin.email, DEMO.admin.password);
    await page.goto('/en/admin/oauth/server');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('OAuth clients');

    // A confidential third-party client, its redirect URI on the partner's server.
    await page.getByRole('button', { name: 'Add client' }).click();
    const form = page.getByRole('dialog', { name: 'Add an OAuth client' });
    await form.getByLabel('Name', { exact: true }).fill(name);
    await expect(form.getByLabel('Confidential')).toBeChecked();
    await form.getByLabel('Redirect URIs', { exact: true }).fill(partner.url);
    await form.getByLabel(/^offline_access/).check();
    await form.getByRole('button', { name: 'Add client' }).click();

    // The secret, once, copied with the button.
    const shown = page.getByRole('dialog', { name: `Secret of ${name}` });
    await expect(shown.getByTestId('secret-warning')).toContainText('shown this once');
    const clientId = await shown.getByLabel('Client ID').inputValue();
    const secret = await shown.getByLabel('Client secret').inputValue();
    expect(secret).toMatch(/^vpncs_/);
    await shown.getByRole('button', { name: 'Copy the secret' }).click();
    await expect(shown.getByText('Copied.')).toBeVisible();
    // The e2e room has no DOM types: the page's clipboard, read as a string of code.
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    const detail = page.getByRole('dialog', { name });
    await expect(detail.getByTestId('secret-state')).toContainText('Set');
    await expect(detail).not.toContainText(secret);

    // The partner's server: discovery, PKCE, its secret.
    const config = await client.discovery(
      new URL(String(baseURL)),
      clientId,
      secret,
      client.ClientSecretBasic(secret),
      { execute: [client.allowInsecureRequests] },
    );
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const authorization = client.buildAuthorizationUrl(config, {
      redirect_uri: partner.url,
      scope: 'openid email offline_access',
      prompt: 'consent',
      state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });

    // A customer, signed out, goes there: signs in, then allows the app.
    const customer = await registerVerifiedUser(request, 'oauth-rp');
    const context = await browser.newContext();
    const person = await context.newPage();
    await person.goto(authorization.href);
    await expect(person).toHaveURL(/\/en\/signin/);
    await submitSignIn(person, customer.email, customer.password);
    await expect(person).toHaveURL(/\/en\/oauth\/consent\//);
    await expect(person.getByRole('heading', { name: `Allow ${name}?` })).toBeVisible();
    await person.getByRole('button', { name: 'Allow', exact: true }).click();
    const back = await partner.landed;
    await expect(person.getByText('Partner signed in')).toBeVisible();
    await context.close();

    const tokens = await client.authorizationCodeGrant(config, back, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const sub = String(tokens.claims()?.sub);
    const info = await client.fetchUserInfo(config, tokens.access_token, sub);
    expect(info.email).toBe(customer.email);
    expect(tokens.refresh_token).toBeTruthy();

    // The admin disables the app: its refresh is refused from then on.
    await detail.getByRole('button', { name: 'Disable' }).click();
    const question = page.getByRole('dialog', { name: `Disable ${name}?` });
    await expect(question).toContainText('refused at once');
    await question.getByRole('button', { name: 'Disable' }).click();
    await expect(detail.getByTestId('client-status')).toHaveText('Disabled');
    const refused = await client
      .refreshTokenGrant(config, String(tokens.refresh_token))
      .then(() => 'no refusal')
      .catch((error: { error?: string; cause?: { parameters?: { error?: string } }[] }) =>
        Array.isArray(error.cause) ? error.cause[0]?.parameters?.error : error.error,
      );
    expect(refused).toBe('invalid_client');
  } finally {
    partner.server.close();
  }
});

test('an admin saves Google’s settings and the secret is never shown back', async ({ page }) => {
  const secret = 'e2e-client-secret';
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await page.goto('/en/admin/oauth/client');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('OAuth providers');
  const google = page.getByRole('form', { name: 'Google settings' });
  await expect(page.getByTestId('secret-state-google')).toHaveText(
    /Set in the server's environment\.|A secret is set\./,
  );
  // The journey's server takes Google from the environment (the stand-in provider): the same
  // keys saved here, so social sign-in keeps working for the other journeys.
  await expect(google.getByLabel('Client ID')).toHaveValue('vpn-web');
  await google.getByLabel('Client secret').fill(secret);
  await google.getByRole('button', { name: 'Save Google' }).click();
  await expect(page.getByText('Google settings saved.')).toBeVisible();
  await expect(page.getByTestId('secret-state-google')).toHaveText('A secret is set.');
  await expect(google.getByLabel('Client secret')).toHaveValue('');

  await page.reload();
  await expect(page.getByTestId('secret-state-google')).toHaveText('A secret is set.');
  await expect(page.getByText('Settings in force: saved here')).toHaveCount(1);
  expect(await page.content()).not.toContain(secret);
  const answer = await page.request.get('/api/dashboard/v1/oauth/providers', {
    headers: { 'x-requested-with': 'fetch' },
  });
  expect(answer.status()).toBe(200);
  expect(await answer.text()).not.toContain(secret);
  // The next sign-in runs with what was saved: Google is still offered.
  const providers = await page.request.get('/api/public/v1/oauth-client/providers');
  expect(JSON.stringify(await providers.json())).toContain('"google"');
});
