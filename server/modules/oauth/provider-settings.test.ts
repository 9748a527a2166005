import { generateKeyPairSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { auditLog, oauthProviders } from '../../db/schema/index.ts';
import type { AppError } from '../../http/app-error.ts';
import { SecretBox } from '../../platform/crypto/secret-box.ts';
import { apiClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { startTestOpenIdProvider } from '../../test/test-openid-provider.ts';
import { OAUTH_BASE, socialSignIn } from '../../test/test-social-sign-in.ts';
import { createUser } from '../../test/test-users.ts';
import { saveProviderSettings } from './provider-settings.ts';

// §7 OAuth providers "from config or the database": a row overrides the environment.

const APP_URL = 'http://localhost:3000';
const google = await startTestOpenIdProvider({
  redirectUri: `${APP_URL}${OAUTH_BASE}/callback/google`,
});
afterAll(() => google.close());

// One app configured by nothing but the database, one whose environment configures Google.
const bare = await createTestApp({ APP_URL });
const configured = await createTestApp({
  APP_URL,
  OAUTH_GOOGLE_CLIENT_ID: google.clientId,
  OAUTH_GOOGLE_CLIENT_SECRET: google.clientSecret,
  OAUTH_GOOGLE_ISSUER: google.issuer,
});

/** What a staff request looks like to the audit log. */
const staffRequest = { ip: '203.0.113.5', headers: { 'user-agent': 'admin-browser' } };

const listed = async (app: typeof bare.app) => {
  const answer = await apiClient(app)('GET', `${OAUTH_BASE}/providers`);
  expect(answer.status).toBe(200);
  return (answer.body.items as { id: string }[]).map((provider) => provider.id);
};

describe('a provider configured in the database only', () => {
  const { app } = bare;
  const call = apiClient(app);

  it('is off until saved, then listed and signs a person in', async () => {
    expect(await listed(app)).toEqual([]);
    const admin = await createUser(app.db, { role: 'ADMIN' });
    await saveProviderSettings(app, staffRequest, admin.id, {
      id: 'google',
      enabled: true,
      issuer: google.issuer,
      clientId: google.clientId,
      secret: google.clientSecret,
    });
    expect(await listed(app)).toEqual(['google']);

    google.addPerson({ sub: 'db-1', email: 'db-one@example.com', email_verified: true });
    const signedIn = await socialSignIn(app, call, google, 'db-1');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ email: 'db-one@example.com', activated: true });

    // Sealed at rest with its own key, and never written to the audit log.
    const [row] = await app.db.select().from(oauthProviders);
    expect(row?.secretSealed).not.toContain(google.clientSecret);
    expect(app.oauthProviderBox.open(row?.secretSealed ?? '')).toBe(google.clientSecret);
    expect(() => app.totpBox.open(row?.secretSealed ?? '')).toThrow();
    const [entry] = await app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'oauth.provider_updated'));
    expect(entry).toMatchObject({
      actorId: admin.id,
      subjectType: 'oauth_provider',
      subjectId: 'google',
      ip: '203.0.113.5',
      data: { enabled: true, client_id: google.clientId, secret_changed: true },
    });
    expect(JSON.stringify(entry)).not.toContain(google.clientSecret);
  });

  it('keeps the stored secret when a later save leaves it out', async () => {
    const admin = await createUser(app.db, { role: 'ADMIN' });
    await saveProviderSettings(app, staffRequest, admin.id, {
      id: 'google',
      enabled: true,
      issuer: google.issuer,
      clientId: google.clientId,
    });
    google.addPerson({ sub: 'db-2', email: 'db-two@example.com', email_verified: true });
    expect((await socialSignIn(app, call, google, 'db-2')).status).toBe(200);
  });

  it('refuses settings it could not sign in with', async () => {
    const admin = await createUser(app.db, { role: 'ADMIN' });
    const save = (input: Parameters<typeof saveProviderSettings>[3]) =>
      saveProviderSettings(app, staffRequest, admin.id, input).then(
        () => undefined,
        (error: AppError) => error.validation,
      );
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    expect(await save({ id: 'apple', enabled: true, clientId: 'svc' })).toEqual({
      secret: ['input_errors.field_is_required'],
    });
    expect(
      await save({ id: 'apple', enabled: true, clientId: 'svc', secret: p384, appleKeyId: 'K' }),
    ).toEqual({ apple_team_id: ['input_errors.field_is_required'] });
    expect(
      await save({
        id: 'apple',
        enabled: true,
        clientId: 'svc',
        secret: p384,
        appleTeamId: 'T',
        appleKeyId: 'K',
      }),
    ).toEqual({ secret: ['input_errors.field_is_invalid'] });
    expect(
      await save({ id: 'google', enabled: true, clientId: 'x', secret: 's', issuer: 'ftp://x' }),
    ).toEqual({ issuer: ['input_errors.field_is_invalid'] });
    expect(await listed(app)).toEqual(['google']);
  });
});

describe('a database row over the environment', () => {
  const { app } = configured;
  const call = apiClient(app);
  const notFound = { code: 'not_found', errors_info: ['errors.oauth_provider_disabled'] };

  it('switches an environment provider off, and on again', async () => {
    const admin = await createUser(app.db, { role: 'ADMIN' });
    expect(await listed(app)).toEqual(['google']);
    await saveProviderSettings(app, staffRequest, admin.id, {
      id: 'google',
      enabled: false,
      clientId: '',
    });
    expect(await listed(app)).toEqual([]);
    const start = await call('GET', `${OAUTH_BASE}/authorize/google`);
    expect(start.status).toBe(404);
    expect(start.body).toEqual(notFound);

    // Switched off, it kept no secret: turning it on needs one.
    await expect(
      saveProviderSettings(app, staffRequest, admin.id, {
        id: 'google',
        enabled: true,
        issuer: google.issuer,
        clientId: google.clientId,
      }),
    ).rejects.toMatchObject({ validation: { secret: ['input_errors.field_is_required'] } });
    await saveProviderSettings(app, staffRequest, admin.id, {
      id: 'google',
      enabled: true,
      issuer: google.issuer,
      clientId: google.clientId,
      secret: google.clientSecret,
    });
    google.addPerson({ sub: 'env-1', email: 'env-one@example.com', email_verified: true });
    expect((await socialSignIn(app, call, google, 'env-1')).status).toBe(200);
  });

  it('overrides the environment’s client with its own', async () => {
    const admin = await createUser(app.db, { role: 'ADMIN' });
    await saveProviderSettings(app, staffRequest, admin.id, {
      id: 'google',
      enabled: true,
      issuer: google.issuer,
      clientId: 'someone-else',
      secret: 'not-ours',
    });
    const start = await call('GET', `${OAUTH_BASE}/authorize/google`);
    expect(new URL(String(start.headers.location)).searchParams.get('client_id')).toBe(
      'someone-else',
    );
  });

  it('switches a provider off whose secret was sealed under another key', async () => {
    const foreign = new SecretBox('another-app-secret-0123456789abcdef', 'oauth_providers.secret');
    await app.db
      .update(oauthProviders)
      .set({ secretSealed: foreign.seal(google.clientSecret), clientId: google.clientId })
      .where(eq(oauthProviders.id, 'google'));
    expect(await listed(app)).toEqual([]);
  });
});
