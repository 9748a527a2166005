import { describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { createUser, TEST_PASSWORD } from '../../test/test-users.ts';

// Over HTTPS the session cookie is `__Host-sid`: Secure, path /, no domain. A browser drops
// a Set-Cookie for such a name without those, the one that clears it at sign-out too.
const { app } = await createTestApp({ APP_URL: 'https://vpn.example.com' });
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
