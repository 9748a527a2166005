import { generateKeyPairSync } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { startTestOpenIdProvider } from '../../test/test-openid-provider.ts';

const APP_URL = 'http://localhost:3000';
const BASE = '/api/public/v1/oauth-client';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

// The stand-in answers discovery for "Apple"; the code exchange with Apple's JWT client
// secret is covered by platform/oauth/apple-client-secret.test.ts.
const stand = await startTestOpenIdProvider({ redirectUri: `${APP_URL}${BASE}/callback/apple` });
afterAll(() => stand.close());

const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const appleEnv = {
  OAUTH_APPLE_CLIENT_ID: 'com.example.vpn.web',
  OAUTH_APPLE_TEAM_ID: 'TEAM123456',
  OAUTH_APPLE_KEY_ID: 'KEY1234567',
  // As an env file carries it: on one line, with `\n` escapes.
  OAUTH_APPLE_PRIVATE_KEY: pem.replace(/\n/g, '\\n'),
  OAUTH_APPLE_ISSUER: stand.issuer,
};

const { app } = await createTestApp({ APP_URL, ...appleEnv });
const call = apiClient(app);

async function authorizeApple(target = app) {
  const response = await target.inject({ method: 'GET', url: `${BASE}/authorize/apple?lang=es` });
  const cookie = response.cookies.find((c) => c.name.endsWith('oauth-state'));
  return { response, cookie, location: new URL(String(response.headers.location)) };
}

describe('Sign in with Apple', () => {
  it('is listed alone when only Apple has keys', async () => {
    const { body } = await call('GET', `${BASE}/providers`);
    expect(body).toEqual({
      items: [{ id: 'apple', name: 'Apple', href: `${BASE}/authorize/apple` }],
      controls: { page: 1, per_page: 20, total: 1, last_page: 1 },
    });
  });

  it('asks for a form_post answer with the name scope', async () => {
    const { response, cookie, location } = await authorizeApple();
    expect(response.statusCode).toBe(302);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      client_id: 'com.example.vpn.web',
      response_mode: 'form_post',
      scope: 'openid email name',
      redirect_uri: `${APP_URL}${BASE}/callback/apple`,
    });
    // Plain http cannot carry SameSite=None (it needs Secure): Lax, and Apple needs https.
    expect(cookie).toMatchObject({ name: 'oauth-state', sameSite: 'Lax', path: BASE });
  });

  it('over https, keeps the state in a Secure, SameSite=None cookie for the cross-site post', async () => {
    const secure = await createTestApp({ APP_URL: 'https://vpn.example.com', ...appleEnv });
    const { cookie } = await authorizeApple(secure.app);
    expect(cookie).toMatchObject({
      name: '__Secure-oauth-state',
      sameSite: 'None',
      secure: true,
      httpOnly: true,
    });
  });

  it('forwards the form post to the app page, keeping the name Apple sends once', async () => {
    const { cookie, location } = await authorizeApple();
    const state = location.searchParams.get('state') ?? '';
    const user = JSON.stringify({ name: { firstName: 'Ada', lastName: 'Lovelace' } });
    const answer = await app.inject({
      method: 'POST',
      url: `${BASE}/callback/apple`,
      headers: { ...FORM, cookie: `oauth-state=${cookie?.value}`, 'x-requested-with': 'fetch' },
      payload: new URLSearchParams({ code: 'c0de', state, user }).toString(),
    });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe(
      `/es/oauth/callback?provider=apple&code=c0de&state=${state}`,
    );
    const kept = answer.cookies.find((c) => c.name === 'oauth-state');
    expect(JSON.parse(app.oauthStateBox.open(kept?.value ?? ''))).toMatchObject({
      provider: 'apple',
      state,
      name: 'Ada Lovelace',
    });
  });

  it('forwards a cancelled sign-in as an error', async () => {
    const answer = await app.inject({
      method: 'POST',
      url: `${BASE}/callback/apple`,
      headers: { ...FORM, 'x-requested-with': 'fetch' },
      payload: 'error=user_cancelled_authorize&state=s1',
    });
    expect(answer.headers.location).toBe(
      '/en/oauth/callback?provider=apple&error=user_cancelled_authorize&state=s1',
    );
  });

  // Apple's post is a cross-site form: no x-requested-with, Origin appleid.apple.com. The
  // route is exempt from the CSRF guard (it only forwards code and state to the app page).
  it('accepts the cross-site form post exactly as Apple sends it', async () => {
    const answer = await app.inject({
      method: 'POST',
      url: `${BASE}/callback/apple`,
      headers: { ...FORM, origin: 'https://appleid.apple.com' },
      payload: 'code=c0de&state=s1',
    });
    expect(answer.statusCode).toBe(303);
  });
});
