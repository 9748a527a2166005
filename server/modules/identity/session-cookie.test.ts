import { describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { createUser, TEST_PASSWORD } from '../../test/test-users.ts';

// Over HTTPS the session cookie is `__Host-sid`: Secure, path /, no domain. A browser drops
// a Set-Cookie for such a name without those, the one that clears it at sign-out too.
// Passkey ceremonies may also run on another name of the relying party (WEBAUTHN_ORIGINS).
const { app } = await createTestApp({
  APP_URL: 'https://vpn.example.com',
  WEBAUTHN_RP_ID: 'example.com',
  WEBAUTHN_ORIGINS: 'https://vpn.example.com,https://account.example.com',
});
const call = apiClient(app);

describe('session cookie over HTTPS', () => {
  it('is set and cleared as a Secure __Host- cookie', async () => {
    const user = await createUser(app.db);
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/public/v1/auth/sign-in',
      headers: { 'x-requested-with': 'fetch', origin: 'https://vpn.example.com' },
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    const set = signIn.cookies.find((c) => c.name === '__Host-sid');
    expect(set).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(set?.domain).toBeUndefined();
    // The device cookie too (device-cookie.ts), which outlives the session.
    const device = signIn.cookies.find((c) => c.name === '__Host-device');
    expect(device).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(device?.domain).toBeUndefined();

    const signOut = await app.inject({
      method: 'POST',
      url: '/api/all/v1/auth/sign-out',
      headers: { 'x-requested-with': 'fetch', cookie: `__Host-sid=${set?.value}` },
    });
    const cleared = signOut.cookies.find((c) => c.name === '__Host-sid');
    expect(cleared).toMatchObject({ value: '', secure: true, path: '/' });
  });

  it('accepts the public origin behind a proxy that rewrites Host', async () => {
    const answer = await call('POST', '/api/public/v1/auth/sign-in', {
      body: { email: 'nobody@example.com', password: TEST_PASSWORD },
      headers: { origin: 'https://vpn.example.com', host: '10.0.0.5:3000' },
    });
    expect(answer.status).toBe(401);
    const foreign = await call('POST', '/api/public/v1/auth/sign-in', {
      body: { email: 'nobody@example.com', password: TEST_PASSWORD },
      headers: { origin: 'https://evil.example', host: '10.0.0.5:3000' },
    });
    expect(foreign.status).toBe(403);
  });
});

// CSRF's Origin check compares with the configured site origin, scheme included, and never
// with the request's own Host header, which the client writes.
describe('the Origin of a write', () => {
  const signInFrom = (headers: Record<string, string>) =>
    call('POST', '/api/public/v1/auth/sign-in', {
      body: { email: 'nobody@example.com', password: TEST_PASSWORD },
      headers,
    });

  it.each([
    ['another host', { origin: 'https://evil.example' }],
    ['our host over plain http', { origin: 'http://vpn.example.com' }],
    ['our host on another port', { origin: 'https://vpn.example.com:8443' }],
    [
      'a Host header spoofed to match a spoofed Origin',
      { origin: 'https://evil.example', host: 'evil.example' },
    ],
    ['an opaque origin', { origin: 'null' }],
    ['another name of the relying party, not listed', { origin: 'https://shop.example.com' }],
  ])('refuses %s', async (_name, headers) => {
    const answer = await signInFrom(headers);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ code: 'forbidden', errors_info: ['errors.csrf'] });
  });

  it('lets the site origin through, whatever the Host, and a call without an Origin', async () => {
    expect((await signInFrom({ origin: 'https://vpn.example.com' })).status).toBe(401);
    expect((await signInFrom({ origin: 'https://vpn.example.com', host: 'x.test' })).status).toBe(
      401,
    );
    expect((await signInFrom({})).status).toBe(401);
  });

  it('lets a page of WEBAUTHN_ORIGINS through: passkey ceremonies run there', async () => {
    expect((await signInFrom({ origin: 'https://account.example.com' })).status).toBe(401);
  });
});
