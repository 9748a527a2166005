import { eq, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { interactionPath } from '#shared/contracts/oidc.ts';
import { auditLog, oauthClients, oidcModels, oidcSigningKeys } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { CookieBrowser } from '../../test/cookie-browser.ts';
import { startIssuerApp } from '../../test/issuer-app.ts';
import { signedInUser, type TestSession } from '../../test/test-sessions.ts';
import { createTestServer, grantAccess, wireGuardKeyPair } from '../../test/vpn-kit.ts';
import { createOAuthClient } from './oauth-clients-service.ts';
import { REFRESH_REUSE_GRACE_MS } from './oidc-adapter.ts';
import { rotateSigningKey } from './oidc-keys.ts';

// The provider from outside, as a relying party sees it: openid-client over real HTTP
// against the real app (issue 24 "Tests"), on PGlite and PostgreSQL alike.

const REDIRECT = 'http://127.0.0.1:1/callback';
const insecure = { execute: [client.allowInsecureRequests] };

let app: App;
let issuer: string;
let person: TestSession;

beforeAll(async () => {
  ({ app, issuer } = await startIssuerApp());
  person = await signedInUser(app);
});

async function newClient(options: {
  type: 'public' | 'confidential';
  firstParty: boolean;
  scopes?: string[];
}) {
  const { client: row, secret } = await createOAuthClient(app.db, app.oidcClientBox, {
    name: options.firstParty ? 'Shieldline for Android' : 'Partner portal',
    type: options.type,
    firstParty: options.firstParty,
    redirectUris: [REDIRECT],
    grantTypes: [
      'authorization_code',
      'refresh_token',
      'urn:ietf:params:oauth:grant-type:device_code',
    ],
    scopes: options.scopes ?? ['openid', 'offline_access', 'email', 'profile', 'account', 'vpn'],
  });
  const config = await client.discovery(
    new URL(issuer),
    row.clientId,
    secret ?? undefined,
    secret ? client.ClientSecretBasic(secret) : client.None(),
    insecure,
  );
  return { row, secret, config };
}

type Rp = Awaited<ReturnType<typeof newClient>>;

/** The authorization request up to the redirect back to the app, signed in as `who`. */
async function authorize(
  rp: Rp,
  who: TestSession,
  scope = 'openid email account',
  browser = new CookieBrowser([who.cookie]),
) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(rp.config, {
    redirect_uri: REDIRECT,
    scope,
    state,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const landed = await browser.follow(url, (next) => next.href.startsWith(REDIRECT));
  return { landed: landed.url, verifier, state, browser };
}

async function signInWith(rp: Rp, who = person, scope?: string) {
  const { landed, verifier, state } = await authorize(rp, who, scope);
  return client.authorizationCodeGrant(rp.config, landed, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
}

async function refusal(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return (error as { error?: string }).error ?? (error as Error).message;
  }
  return 'no refusal';
}

describe('the OpenID provider', () => {
  it('publishes discovery and its signing keys', async () => {
    const rp = await newClient({ type: 'public', firstParty: true });
    const metadata = rp.config.serverMetadata();
    expect(metadata.issuer).toBe(issuer);
    expect(metadata.token_endpoint).toBe(`${issuer}/oidc/token`);
    expect(metadata.device_authorization_endpoint).toBe(`${issuer}/oidc/device/auth`);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    const jwks = (await (await fetch(`${issuer}/oidc/jwks`)).json()) as { keys: object[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('signs a first-party app in with code and PKCE, without a consent screen', async () => {
    const rp = await newClient({ type: 'public', firstParty: true });
    const tokens = await signInWith(rp);
    expect(tokens.claims()?.sub).toBe(String(person.user.id));
    expect(tokens.scope?.split(' ').sort()).toEqual(['account', 'email', 'openid']);
    // An app of ours keeps its sign-in without asking for offline_access and its consent.
    expect(tokens.refresh_token).toBeTruthy();
    const info = await client.fetchUserInfo(
      rp.config,
      tokens.access_token,
      person.user.id.toString(),
    );
    expect(info.email).toBe(person.user.email);
  });

  it('stores token ids as hashes, never the values', async () => {
    const rp = await newClient({ type: 'public', firstParty: true });
    const tokens = await signInWith(rp);
    const rows = await app.db.select().from(oidcModels);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(tokens.access_token);
    expect(stored).not.toContain(String(tokens.refresh_token));
  });

  it('sends a signed-out browser to sign in, and back to the app after', async () => {
    const rp = await newClient({ type: 'public', firstParty: true });
    const browser = new CookieBrowser();
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(rp.config, {
      redirect_uri: REDIRECT,
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const atSignIn = await browser.follow(url, (next) => next.pathname.endsWith('/signin'));
    const back = atSignIn.url.searchParams.get('redirect_url') ?? '';
    expect(back).toMatch(new RegExp(`^${issuer}/api/public/v1/oauth/interactions/[\\w-]+$`));
    browser.keep(person.cookie);
    const landed = await browser.follow(back, (next) => next.href.startsWith(REDIRECT));
    const tokens = await client.authorizationCodeGrant(rp.config, landed.url, {
      pkceCodeVerifier: verifier,
    });
    expect(tokens.claims()?.sub).toBe(String(person.user.id));
  });

  it('asks a third party for consent, and an interaction opened elsewhere finishes nothing', async () => {
    const rp = await newClient({ type: 'confidential', firstParty: false });
    const {
      landed: atConsent,
      browser,
      verifier,
      state,
    } = await authorize(rp, person, 'openid email', undefined).catch(() => ({
      landed: new URL(issuer),
      browser: new CookieBrowser(),
      verifier: '',
      state: '',
    }));
    // The browser stopped at our consent screen (not a redirect URI of the app).
    expect(atConsent.pathname).toMatch(/^\/en\/oauth\/consent\/[\w-]+$/);
    const uid = atConsent.pathname.split('/').pop() ?? '';
    const headers = { 'x-requested-with': 'fetch' };

    // Another browser, signed in as the same person but without the interaction's cookie.
    const stranger = new CookieBrowser([person.cookie]);
    const elsewhere = await stranger.fetch(`${issuer}${interactionPath(uid)}/confirm`, {
      method: 'POST',
      headers,
    });
    expect(elsewhere.status).toBe(404);

    const details = await browser.fetch(`${issuer}${interactionPath(uid)}/details`);
    expect(await details.json()).toMatchObject({
      client: { name: 'Partner portal', first_party: false },
      scopes: expect.arrayContaining(['openid', 'email']),
      email: person.user.email,
    });
    const confirmed = await browser.fetch(`${issuer}${interactionPath(uid)}/confirm`, {
      method: 'POST',
      headers,
    });
    expect(confirmed.status).toBe(200);
    const { redirect_to } = (await confirmed.json()) as { redirect_to: string };
    const back = await browser.follow(redirect_to, (next) => next.href.startsWith(REDIRECT));
    const tokens = await client.authorizationCodeGrant(rp.config, back.url, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.claims()?.sub).toBe(String(person.user.id));
    // A third party without offline_access gets no refresh token.
    expect(tokens.refresh_token).toBeUndefined();
    const audit = await app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'oidc.consent_given'));
    expect(audit.map((row) => row.subjectId)).toContain(rp.row.clientId);
  });

  it('refuses a missing or wrong PKCE verifier and a code used twice', async () => {
    const rp = await newClient({ type: 'public', firstParty: true });
    const { landed, verifier, state } = await authorize(rp, person);
    expect(
      await refusal(
        client.authorizationCodeGrant(rp.config, landed, {
          pkceCodeVerifier: client.randomPKCECodeVerifier(),
          expectedState: state,
        }),
      ),
    ).toBe('invalid_grant');
    const exchange = () =>
      client.authorizationCodeGrant(rp.config, landed, {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
    const tokens = await exchange();
    // Used again: refused, and what it gave is revoked (the code may have been stolen).
    expect(await refusal(exchange())).toBe('invalid_grant');
    const info = await fetch(`${issuer}/oidc/me`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(info.status).toBe(401);

    const withoutPkce = client.buildAuthorizationUrl(rp.config, {
      redirect_uri: REDIRECT,
      scope: 'openid',
    });
    const refused = await new CookieBrowser([person.cookie]).follow(withoutPkce, (next) =>
      next.href.startsWith(REDIRECT),
    );
    expect(refused.url.searchParams.get('error')).toBe('invalid_request');
    const audited = await app.db.select().from(auditLog).where(eq(auditLog.action, 'oidc.refused'));
    expect(audited.some((row) => row.data.error === 'invalid_grant')).toBe(true);
  });

  it('refuses redirect URIs that are not exactly the app’s, without redirecting there', async () => {
    const rp = await newClient({ type: 'public', firstParty: true });
    for (const wrong of [
      'http://127.0.0.1:1/callback/../evil',
      'http://127.0.0.1:1/callbackx',
      'http://127.0.0.1.evil.test:1/callback',
      'https://evil.test/?next=http://127.0.0.1:1/callback',
    ]) {
      const url = client.buildAuthorizationUrl(rp.config, {
        redirect_uri: wrong,
        scope: 'openid',
        code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      });
      const response = await new CookieBrowser([person.cookie]).fetch(url);
      expect(response.status, wrong).toBe(400);
      expect(response.headers.get('location'), wrong).toBeNull();
      expect(await response.text()).toContain('redirect_uri');
    }
  });

  it('rotates refresh tokens, allows two tabs at once, and revokes the grant on a late replay', async () => {
    const rp = await newClient({ type: 'public', firstParty: true });
    const first = await signInWith(rp);
    const original = String(first.refresh_token);
    const second = await client.refreshTokenGrant(rp.config, original);
    expect(second.refresh_token).toBeTruthy();
    expect(second.refresh_token).not.toBe(original);
    // Another tab with the same token a moment later: still answered (the grace).
    const tab = await client.refreshTokenGrant(rp.config, original);
    expect(tab.access_token).toBeTruthy();

    // Past the grace, the old token is a replay: refused, and the whole grant revoked.
    await app.db
      .update(oidcModels)
      .set({ consumedAt: new Date(Date.now() - REFRESH_REUSE_GRACE_MS - 1_000) })
      .where(eq(oidcModels.model, 'RefreshToken'));
    expect(await refusal(client.refreshTokenGrant(rp.config, original))).toBe('invalid_grant');
    expect(await refusal(client.refreshTokenGrant(rp.config, String(second.refresh_token)))).toBe(
      'invalid_grant',
    );
    const info = await fetch(`${issuer}/oidc/me`, {
      headers: { authorization: `Bearer ${second.access_token}` },
    });
    expect(info.status).toBe(401);
    const revoked = await app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'oidc.grant_revoked'));
    expect(revoked.length).toBeGreaterThan(0);
  });

  it('revokes and introspects tokens for a confidential client', async () => {
    const rp = await newClient({ type: 'confidential', firstParty: true });
    const tokens = await signInWith(rp, person, 'openid vpn');
    const active = await client.tokenIntrospection(rp.config, tokens.access_token);
    expect(active).toMatchObject({
      active: true,
      sub: String(person.user.id),
      scope: 'openid vpn',
    });
    await client.tokenRevocation(rp.config, tokens.access_token);
    expect((await client.tokenIntrospection(rp.config, tokens.access_token)).active).toBe(false);

    // Another client cannot introspect this one's tokens.
    const other = await newClient({ type: 'confidential', firstParty: true });
    const fresh = await signInWith(rp, person, 'openid');
    expect((await client.tokenIntrospection(other.config, fresh.access_token)).active).toBe(false);
  });

  it('answers a device authorization with a code to show and our page to go to', async () => {
    const rp = await newClient({ type: 'public', firstParty: true });
    const started = await client.initiateDeviceAuthorization(rp.config, {
      scope: 'openid offline_access vpn',
    });
    expect(started.user_code).toMatch(/^[B-DF-HJ-NP-TV-XZ]{4}-[B-DF-HJ-NP-TV-XZ]{4}$/);
    expect(started.verification_uri).toBe(`${issuer}/device`);
    const page = await fetch(String(started.verification_uri_complete), {
      redirect: 'manual',
      headers: { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' },
    });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(
      `/fr/device?user_code=${encodeURIComponent(started.user_code)}`,
    );
  });

  it('rotates its signing key: the new one signs, the old stays published for its tokens', async () => {
    const rp = await newClient({ type: 'public', firstParty: true });
    const before = await signInWith(rp);
    const kid = await rotateSigningKey(app.db, app.oidcKeyBox, { force: true });
    app.oidc.invalidate();
    const after = await signInWith(rp);
    const kidOf = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()).kid;
    expect(kidOf(String(after.id_token))).toBe(kid);
    expect(kidOf(String(before.id_token))).not.toBe(kid);
    const jwks = (await (await fetch(`${issuer}/oidc/jwks`)).json()) as { keys: { kid: string }[] };
    expect(jwks.keys.map((key) => key.kid)).toEqual([kid, kidOf(String(before.id_token))]);
    // Once the old key's tokens have expired it is dropped.
    await rotateSigningKey(app.db, app.oidcKeyBox, { now: new Date(Date.now() + 2 * 86_400_000) });
    const kept = await app.db.select().from(oidcSigningKeys);
    expect(kept.map((row) => row.kid)).toEqual([kid]);
  });

  it('replaces a key that is due through the daily job, and audits it', async () => {
    await app.db.update(oidcSigningKeys).set({ createdAt: new Date(Date.now() - 31 * 86_400_000) });
    await app.queue.send('oidc-keys', {});
    await app.queue.drain({ timeoutMs: 20_000 });
    const rotated = await app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'oidc.signing_key_rotated'));
    expect(rotated).toHaveLength(1);
    const keys = await app.db.select().from(oidcSigningKeys);
    expect(keys.find((key) => key.retiredAt === null)?.kid).toBe(rotated[0]?.subjectId);
  });

  it('lets an app call the account API with its token, within its scopes, and nothing else', async () => {
    const rp = await newClient({ type: 'public', firstParty: true });
    const customer = await signedInUser(app);
    await grantAccess(app, customer.user.id);
    await createTestServer(app, { country: 'NL', city: 'Amsterdam', load: 10 });
    const tokens = await signInWith(rp, customer, 'openid account vpn');
    const call = (path: string, token = tokens.access_token, body?: object) =>
      fetch(`${issuer}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });

    const me = await call('/api/account/v1/users/get-auth-user', tokens.access_token, {});
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe(customer.user.email);
    expect((await call('/api/account/v1/subscriptions/current')).status).toBe(200);
    // No CSRF header: a browser never sends a bearer token on its own.
    const created = await call('/api/account/v1/vpn/devices/create', tokens.access_token, {
      name: 'Living-room TV',
      location: 'NL',
      public_key: wireGuardKeyPair().publicKey,
    });
    expect(created.status).toBe(201);
    const { device } = (await created.json()) as { device: { device_id: number } };
    const listed = await call('/api/account/v1/vpn/devices');
    expect(JSON.stringify(await listed.json())).toContain('Living-room TV');

    // Calls not open to apps, and staff's, are closed to the token.
    expect((await call('/api/dashboard/v1/servers')).status).toBe(401);
    expect((await call('/api/account/v1/devices/list')).status).toBe(401);
    expect((await call('/api/account/v1/vpn/devices', 'not-a-token-of-ours-at-all')).status).toBe(
      401,
    );
    const narrow = await signInWith(rp, customer, 'openid account');
    const refused = await call('/api/account/v1/vpn/devices', narrow.access_token);
    expect(refused.status).toBe(403);

    // Removing the device in the account removes the app's access with it.
    const removed = await fetch(`${issuer}/api/account/v1/vpn/devices/delete`, {
      method: 'POST',
      headers: {
        cookie: customer.cookie,
        'x-requested-with': 'fetch',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ device_id: device.device_id }),
    });
    expect(removed.status, await removed.clone().text()).toBe(200);
    expect((await call('/api/account/v1/vpn/devices')).status).toBe(401);
    expect(await refusal(client.refreshTokenGrant(rp.config, String(tokens.refresh_token)))).toBe(
      'invalid_grant',
    );
    // The other grant's token is untouched.
    expect((await call('/api/account/v1/subscriptions/current', narrow.access_token)).status).toBe(
      200,
    );
  });

  it('stops a disabled client’s tokens at once', async () => {
    const rp = await newClient({ type: 'public', firstParty: true });
    const tokens = await signInWith(rp, person, 'openid account');
    await app.db
      .update(oauthClients)
      .set({ disabledAt: new Date() })
      .where(eq(oauthClients.clientId, rp.row.clientId));
    const me = await fetch(`${issuer}/api/account/v1/subscriptions/current`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.status).toBe(401);
    expect(await refusal(client.refreshTokenGrant(rp.config, String(tokens.refresh_token)))).toBe(
      'invalid_client',
    );
  });

  it('signs a TV in with the device flow once its person confirms the code', async () => {
    const rp = await newClient({ type: 'public', firstParty: true });
    const customer = await signedInUser(app);
    await grantAccess(app, customer.user.id);
    const browser = (path: string, body?: object) =>
      fetch(`${issuer}/api/account/v1${path}`, {
        method: body ? 'POST' : 'GET',
        headers: {
          cookie: customer.cookie,
          'x-requested-with': 'fetch',
          'content-type': 'application/json',
        },
        body: body ? JSON.stringify(body) : undefined,
      });
    const started = await client.initiateDeviceAuthorization(rp.config, {
      scope: 'openid offline_access vpn',
    });
    // The TV polls while its person confirms (the poll waits `interval` between tries).
    const polled = client.pollDeviceAuthorizationGrant(rp.config, { ...started, interval: 1 });

    const typed = started.user_code.toLowerCase().replace('-', ' ');
    const seen = await browser(`/oauth/device?user_code=${encodeURIComponent(typed)}`);
    expect(seen.status).toBe(200);
    expect(await seen.json()).toMatchObject({
      user_code: started.user_code,
      client: { name: 'Shieldline for Android' },
      scopes: ['openid', 'offline_access', 'vpn'],
      vpn: { access: true, devices: 0 },
    });
    const approved = await browser('/oauth/device/approve', {
      user_code: typed,
      device_name: 'Living-room TV',
    });
    expect(approved.status).toBe(200);
    const tokens = await polled;
    expect(tokens.refresh_token).toBeTruthy();

    // The TV adds its WireGuard device with its token.
    const created = await fetch(`${issuer}/api/account/v1/vpn/devices/create`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        name: 'TV',
        location: 'fastest',
        public_key: wireGuardKeyPair().publicKey,
      }),
    });
    expect(created.status).toBe(201);

    // The code works once.
    const again = await browser('/oauth/device/approve', {
      user_code: started.user_code,
      device_name: 'Kitchen TV',
    });
    expect(again.status).toBe(422);
    expect(JSON.stringify(await again.json())).toContain('apps.device.errors.used');
    const audited = await app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'oidc.device_approved'));
    expect(audited.at(-1)?.data).toMatchObject({ device_name: 'Living-room TV' });
  });

  it('refuses a device code that is unknown, expired or refused, and a plan without a free slot', async () => {
    const rp = await newClient({ type: 'public', firstParty: true });
    const withoutPlan = await signedInUser(app);
    const post = (who: TestSession, path: string, body: object) =>
      fetch(`${issuer}/api/account/v1${path}`, {
        method: 'POST',
        headers: {
          cookie: who.cookie,
          'x-requested-with': 'fetch',
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
    const unknown = await post(withoutPlan, '/oauth/device/deny', { user_code: 'BCDF-GHJK' });
    expect(unknown.status).toBe(422);

    const started = await client.initiateDeviceAuthorization(rp.config, { scope: 'openid vpn' });
    const noSlot = await post(withoutPlan, '/oauth/device/approve', {
      user_code: started.user_code,
      device_name: 'Router',
    });
    expect(noSlot.status).toBe(409);
    expect(JSON.stringify(await noSlot.json())).toContain('apps.device.errors.no_access');

    const denied = await post(withoutPlan, '/oauth/device/deny', { user_code: started.user_code });
    expect(denied.status).toBe(200);
    expect(
      await refusal(client.pollDeviceAuthorizationGrant(rp.config, { ...started, interval: 1 })),
    ).toBe('access_denied');

    const late = await client.initiateDeviceAuthorization(rp.config, { scope: 'openid vpn' });
    await app.db
      .update(oidcModels)
      .set({ payload: sql`${oidcModels.payload} || '{"exp": 1}'::jsonb` })
      .where(eq(oidcModels.model, 'DeviceCode'));
    const expired = await post(person, '/oauth/device/approve', {
      user_code: late.user_code,
      device_name: 'Router',
    });
    expect(expired.status).toBe(422);
  });

  it('lists the apps a person allowed, and revoking one signs it out and removes its VPN device', async () => {
    const tvClient = await newClient({ type: 'public', firstParty: true });
    const phoneClient = await newClient({ type: 'public', firstParty: true });
    const customer = await signedInUser(app);
    const stranger = await signedInUser(app);
    await grantAccess(app, customer.user.id);
    const asBrowser = (who: TestSession, path: string, body?: object) =>
      fetch(`${issuer}/api/account/v1${path}`, {
        method: body ? 'POST' : 'GET',
        headers: {
          cookie: who.cookie,
          'x-requested-with': 'fetch',
          'content-type': 'application/json',
        },
        body: body ? JSON.stringify(body) : undefined,
      });
    const started = await client.initiateDeviceAuthorization(tvClient.config, {
      scope: 'openid offline_access vpn',
    });
    const polled = client.pollDeviceAuthorizationGrant(tvClient.config, {
      ...started,
      interval: 1,
    });
    await asBrowser(customer, '/oauth/device/approve', {
      user_code: started.user_code,
      device_name: 'Bedroom TV',
    });
    const tv = await polled;
    const created = await fetch(`${issuer}/api/account/v1/vpn/devices/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tv.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'TV',
        location: 'fastest',
        public_key: wireGuardKeyPair().publicKey,
      }),
    });
    expect(created.status).toBe(201);
    const phone = await signInWith(phoneClient, customer, 'openid account');

    const listed = (await (await asBrowser(customer, '/connected-apps')).json()) as {
      items: {
        grant_id: string;
        device_name: string | null;
        scopes: string[];
        last_used_at: string | null;
      }[];
    };
    expect(listed.items).toHaveLength(2);
    const tvApp = listed.items.find((item) => item.device_name === 'Bedroom TV');
    expect(tvApp?.scopes).toEqual(['openid', 'offline_access', 'vpn']);
    expect(tvApp?.last_used_at).not.toBeNull();
    // Someone else cannot name it.
    expect(
      (await asBrowser(stranger, '/connected-apps/revoke', { grant_id: tvApp?.grant_id })).status,
    ).toBe(404);

    expect(
      (await asBrowser(customer, '/connected-apps/revoke', { grant_id: tvApp?.grant_id })).status,
    ).toBe(200);
    expect(await refusal(client.refreshTokenGrant(tvClient.config, String(tv.refresh_token)))).toBe(
      'invalid_grant',
    );
    const devices = (await (await asBrowser(customer, '/vpn/devices')).json()) as {
      items: unknown[];
    };
    expect(devices.items).toHaveLength(0);
    // The phone app is untouched until everything is revoked.
    expect(
      await client.refreshTokenGrant(phoneClient.config, String(phone.refresh_token)),
    ).toBeTruthy();
    expect((await asBrowser(customer, '/connected-apps/revoke-all', {})).status).toBe(200);
    const left = (await (await asBrowser(customer, '/connected-apps')).json()) as {
      items: unknown[];
    };
    expect(left.items).toHaveLength(0);
    const audited = await app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'oidc.app_revoked'));
    expect(audited.length).toBeGreaterThanOrEqual(2);
  });

  it('signs out through an app on a page in the person’s language, ending the product session too', async () => {
    const rp = await newClient({ type: 'public', firstParty: true });
    await app.db
      .update(oauthClients)
      .set({ postLogoutRedirectUris: ['http://127.0.0.1:1/signed-out'] })
      .where(eq(oauthClients.clientId, rp.row.clientId));
    const customer = await signedInUser(app);
    const browser = new CookieBrowser([customer.cookie]);
    const { landed, verifier, state } = await authorize(rp, customer, 'openid', browser);
    const tokens = await client.authorizationCodeGrant(rp.config, landed, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const end = client.buildEndSessionUrl(rp.config, {
      id_token_hint: String(tokens.id_token),
      post_logout_redirect_uri: 'http://127.0.0.1:1/signed-out',
      ui_locales: 'fr',
    });
    const question = await browser.fetch(end);
    expect(question.status).toBe(200);
    const html = await question.text();
    expect(html).toContain('Se déconnecter de Shieldline ?');
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const answered = await browser.fetch(new URL(action, issuer), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expect(answered.status).toBe(303);
    expect(answered.headers.get('location')).toBe('http://127.0.0.1:1/signed-out');
    const me = await fetch(`${issuer}/api/account/v1/users/get-auth-user`, {
      method: 'POST',
      headers: { cookie: customer.cookie, 'x-requested-with': 'fetch' },
    });
    expect(me.status).toBe(401);
  });

  it('answers a browser that lands on a protocol error with a page of ours', async () => {
    const page = await fetch(`${issuer}/oidc/auth?client_id=nobody&response_type=code`, {
      headers: { 'accept-language': 'nl' },
    });
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain('Deze aanmelding kan niet verder');
    expect(html).toContain('invalid_client');
  });
});
