import { generateKeyPairSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { oauthProviderSettingsEndpoints as e } from '#shared/contracts/admin/oauth-providers.ts';
import { auditLog } from '../../db/schema/index.ts';
import { apiClient, endpointClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { startTestOpenIdProvider } from '../../test/test-openid-provider.ts';
import { signedInUser } from '../../test/test-sessions.ts';
import { OAUTH_BASE, socialSignIn } from '../../test/test-social-sign-in.ts';

// §2 /admin/oauth/client through the real routes: secrets are never answered back, and a
// save is what the next sign-in runs with (no cache to drop, no restart).

const APP_URL = 'http://localhost:3000';
const google = await startTestOpenIdProvider({
  redirectUri: `${APP_URL}${OAUTH_BASE}/callback/google`,
});
afterAll(() => google.close());

const { app } = await createTestApp({ APP_URL });
const api = endpointClient(app);
const call = apiClient(app);
const admin = await signedInUser(app, { role: 'ADMIN' });
const as = { cookie: admin.cookie };

const appleKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .privateKey.export({ format: 'pem', type: 'pkcs8' })
  .toString();

describe('OAuth provider settings', () => {
  it('are for admins only', async () => {
    const author = await signedInUser(app, { role: 'AUTHOR' });
    expect((await api(e.list, { cookie: author.cookie })).status).toBe(403);
    const saved = await api(e.update, {
      cookie: author.cookie,
      body: { provider: 'google', enabled: false },
    });
    expect(saved.status).toBe(403);
  });

  it('shows nothing set up, then a save that signs the next person in, secret never answered', async () => {
    const before = await api(e.list, as);
    expect(before.status).toBe(200);
    expect(
      before.data.items.map(({ provider, source, enabled }) => [provider, source, enabled]),
    ).toEqual([
      ['google', 'none', false],
      ['apple', 'none', false],
    ]);
    expect(before.data.items[0]?.callback_url).toBe(`${APP_URL}${OAUTH_BASE}/callback/google`);

    const saved = await api(e.update, {
      ...as,
      body: {
        provider: 'google',
        enabled: true,
        issuer: google.issuer,
        client_id: google.clientId,
        secret: google.clientSecret,
      },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.data.item).toMatchObject({
      provider: 'google',
      source: 'admin',
      enabled: true,
      client_id: google.clientId,
      secret_set: true,
    });
    const after = await api(e.list, as);
    for (const answer of [saved.text, after.text])
      expect(answer).not.toContain(google.clientSecret);

    google.addPerson({ sub: 'staff-set-1', email: 'staff-set@example.com', email_verified: true });
    const signedIn = await socialSignIn(app, call, google, 'staff-set-1');
    expect(signedIn.status).toBe(200);

    // Switched off: the very next sign-in finds no Google.
    const off = await api(e.update, {
      ...as,
      body: { provider: 'google', enabled: false, client_id: google.clientId },
    });
    expect(off.data.item).toMatchObject({ enabled: false, secret_set: true });
    const start = await app.inject({ method: 'GET', url: `${OAUTH_BASE}/authorize/google` });
    expect(start.statusCode).toBe(404);

    const audited = await app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'oauth.provider_updated'));
    expect(audited.map((row) => row.actorId)).toEqual([admin.user.id, admin.user.id]);
    expect(JSON.stringify(audited)).not.toContain(google.clientSecret);
  });

  it('keeps Apple’s key sealed, and refuses missing or invalid fields under the field', async () => {
    const missing = await api(e.update, {
      ...as,
      body: { provider: 'apple', enabled: true, client_id: 'com.example.web', secret: appleKey },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors_validation).toEqual({
      apple_team_id: ['input_errors.field_is_required'],
    });
    const notAKey = await api(e.update, {
      ...as,
      body: {
        provider: 'apple',
        enabled: true,
        client_id: 'com.example.web',
        secret: 'not a key',
        apple_team_id: 'TEAM123456',
        apple_key_id: 'KEY1234567',
      },
    });
    expect(notAKey.body.errors_validation).toEqual({ secret: ['input_errors.field_is_invalid'] });

    const saved = await api(e.update, {
      ...as,
      body: {
        provider: 'apple',
        enabled: true,
        client_id: 'com.example.web',
        secret: appleKey,
        apple_team_id: 'TEAM123456',
        apple_key_id: 'KEY1234567',
      },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.data.item).toMatchObject({
      enabled: true,
      secret_set: true,
      apple_team_id: 'TEAM123456',
      apple_key_id: 'KEY1234567',
    });
    const listed = await api(e.list, as);
    expect(listed.text).not.toContain('PRIVATE KEY');
    expect(saved.text).not.toContain('PRIVATE KEY');
  });
});

describe('providers from the environment', async () => {
  const configured = await createTestApp({
    APP_URL,
    OAUTH_GOOGLE_CLIENT_ID: 'env-client',
    OAUTH_GOOGLE_CLIENT_SECRET: 'env-secret-value',
  });
  const envAdmin = await signedInUser(configured.app, { role: 'ADMIN' });

  it('are shown as such, their secret only as set', async () => {
    const listed = await endpointClient(configured.app)(e.list, { cookie: envAdmin.cookie });
    expect(listed.data.items[0]).toMatchObject({
      provider: 'google',
      source: 'environment',
      enabled: true,
      client_id: 'env-client',
      secret_set: true,
    });
    expect(listed.text).not.toContain('env-secret-value');
  });
});
