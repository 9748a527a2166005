import { describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.ts';
import { createTestApp } from '../test/test-app.ts';
import { signedInUser } from '../test/test-sessions.ts';
import { createUser, TEST_PASSWORD } from '../test/test-users.ts';
import { PERMISSIONS_POLICY, securityHeaderValues } from './security-headers.ts';

const { app } = await createTestApp();
const call = apiClient(app);

describe('security headers', () => {
  it('are the same on every answer: pages, API, errors', async () => {
    const answers = await Promise.all(
      ['/healthz', '/api/public/v1/nothing-here', '/en/signin'].map((url) => app.inject({ url })),
    );
    for (const answer of answers) {
      expect(answer.headers['content-security-policy']).toBe(
        securityHeaderValues(false)['content-security-policy'],
      );
      expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(answer.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
      expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(answer.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
    }
  });

  it('ask for HTTPS only when served over HTTPS', () => {
    const plain = securityHeaderValues(false);
    expect(plain['strict-transport-security']).toBeUndefined();
    expect(plain['content-security-policy']).not.toContain('upgrade-insecure-requests');
    const secure = securityHeaderValues(true);
    expect(secure['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(secure['content-security-policy']).toContain('upgrade-insecure-requests');
  });

  it('forbid inline scripts and framing', () => {
    const csp = securityHeaderValues(false)['content-security-policy'];
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
  });
});

describe('the permissions policy', () => {
  const rules = new Map(
    PERMISSIONS_POLICY.split(', ').map((rule) => rule.split('=') as [string, string]),
  );

  it('turns off the powerful features the product does not use', () => {
    for (const feature of [
      'camera',
      'microphone',
      'geolocation',
      'payment',
      'usb',
      'interest-cohort',
      'browsing-topics',
    ]) {
      expect(rules.get(feature), feature).toBe('()');
    }
  });

  it('keeps WebAuthn to our own origin, for passkeys', () => {
    expect(rules.get('publickey-credentials-get')).toBe('(self)');
    expect(rules.get('publickey-credentials-create')).toBe('(self)');
  });
});

describe('Cache-Control', () => {
  it('keeps answers with personal data out of every cache: account, dashboard, sign-in', async () => {
    const customer = await signedInUser(app);
    const admin = await signedInUser(app, { role: 'ADMIN' });
    const owner = await createUser(app.db);
    const answers = await Promise.all([
      call('POST', '/api/account/v1/users/get-auth-user', { cookie: customer.cookie }),
      call('POST', '/api/dashboard/v1/users/get-auth-user', { cookie: admin.cookie }),
      call('POST', '/api/public/v1/auth/sign-in', {
        body: { email: owner.email, password: TEST_PASSWORD },
      }),
    ]);
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers['cache-control']).toBe('no-store');
    }
  });

  it('keeps refusals and unknown API paths out of caches too', async () => {
    const refused = await call('POST', '/api/account/v1/users/get-auth-user');
    expect(refused.status).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
    const unknown = await app.inject({ url: '/api/public/v1/nothing-here' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['cache-control']).toBe('no-store');
  });

  it("leaves a route's own caching alone", async () => {
    const robots = await app.inject({ url: '/robots.txt' });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['cache-control']).toBe('public, max-age=300');
  });
});
