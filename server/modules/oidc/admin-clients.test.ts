import { and, eq } from 'drizzle-orm';
import * as client from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  oauthClientEndpoints as e,
  type OAuthClientCreateInput,
} from '#shared/contracts/admin/oauth-clients.ts';
import { interactionPath } from '#shared/contracts/oidc.ts';
import { OAUTH_CLIENT_MESSAGES as M } from '#shared/oauth/client-rules.ts';
import { auditLog, oauthClients, oidcModels } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { type EndpointCaller, endpointClient } from '../../test/api-client.ts';
import { CookieBrowser } from '../../test/cookie-browser.ts';
import { startIssuerApp } from '../../test/issuer-app.ts';
import { signedInUser, type TestSession } from '../../test/test-sessions.ts';

// §2 /admin/oauth/server through the real routes, and what each change does to a relying
// party that signs people in with openid-client over real HTTP (issue 24, items 4 and 5).

const REDIRECT = 'http://127.0.0.1:1/callback';
const insecure = { execute: [client.allowInsecureRequests] };

let app: App;
let issuer: string;
let api: EndpointCaller;
let admin: TestSession;
let person: TestSession;

beforeAll(async () => {
  ({ app, issuer } = await startIssuerApp());
  api = endpointClient(app);
  admin = await signedInUser(app, { role: 'ADMIN' });
  person = await signedInUser(app);
});

const fields = (extra: Partial<OAuthClientCreateInput> = {}): OAuthClientCreateInput => ({
  name: 'Partner portal',
  type: 'confidential',
  first_party: false,
  redirect_uris: [REDIRECT],
  grant_types: ['authorization_code', 'refresh_token'],
  scopes: ['openid', 'offline_access', 'email', 'account'],
  ...extra,
});

async function create(extra: Partial<OAuthClientCreateInput> = {}) {
  const answer = await api(e.create, { cookie: admin.cookie, body: fields(extra) });
  expect(answer.status, answer.text).toBe(201);
  return answer.data;
}

const relyingParty = (clientId: string, secret: string) =>
  client.discovery(new URL(issuer), clientId, secret, client.ClientSecretBasic(secret), insecure);

/** A person allows the third-party app on the consent screen; the app exchanges the code. */
async function signIn(config: client.Configuration) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid offline_access email account',
    prompt: 'consent',
    state,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const browser = new CookieBrowser([person.cookie]);
  const atConsent = await browser.follow(url, (next) => next.href.startsWith(REDIRECT));
  expect(atConsent.url.pathname).toMatch(/^\/en\/oauth\/consent\/[\w-]+$/);
  const uid = atConsent.url.pathname.split('/').pop() ?? '';
  const confirmed = await browser.fetch(`${issuer}${interactionPath(uid)}/confirm`, {
    method: 'POST',
    headers: { 'x-requested-with': 'fetch' },
  });
  expect(confirmed.status).toBe(200);
  const { redirect_to } = (await confirmed.json()) as { redirect_to: string };
  const back = await browser.follow(redirect_to, (next) => next.href.startsWith(REDIRECT));
  return client.authorizationCodeGrant(config, back.url, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
}

async function refusal(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    // A refused client secret comes as a 401 challenge (RFC 6750 §3): its error parameter.
    const challenge = (error as { cause?: { parameters?: { error?: string } }[] }).cause;
    if (Array.isArray(challenge)) return challenge[0]?.parameters?.error;
    return (error as { error?: string }).error ?? (error as Error).message;
  }
  return 'no refusal';
}

const accountCall = (token: string) =>
  fetch(`${issuer}/api/account/v1/subscriptions/current`, {
    headers: { authorization: `Bearer ${token}` },
  });

async function auditOf(clientId: string) {
  return app.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.subjectType, 'oauth_client'), eq(auditLog.subjectId, clientId)));
}

describe('who may manage clients', () => {
  it('refuses authors and customers, and answers admins', async () => {
    for (const role of ['AUTHOR', 'USER'] as const) {
      const someone = await signedInUser(app, { role });
      const listed = await api(e.list, { cookie: someone.cookie });
      expect(listed.status, role).toBe(403);
      const made = await api(e.create, { cookie: someone.cookie, body: fields() });
      expect(made.status, role).toBe(403);
    }
    expect((await api(e.list, { cookie: admin.cookie })).status).toBe(200);
  });
});

describe('validation', () => {
  const refused = async (extra: Partial<OAuthClientCreateInput>) => {
    const answer = await api(e.create, { cookie: admin.cookie, body: fields(extra) });
    expect(answer.status, answer.text).toBe(422);
    return (answer.body as { errors_validation: Record<string, string[]> }).errors_validation;
  };

  it('refuses redirect URIs that are not absolute, have a fragment or are plain http elsewhere', async () => {
    expect(await refused({ redirect_uris: ['/callback'] })).toEqual({
      redirect_uris: [M.uriInvalid],
    });
    expect(await refused({ redirect_uris: ['https://partner.example/cb#x'] })).toEqual({
      redirect_uris: [M.uriFragment],
    });
    expect(await refused({ redirect_uris: ['http://partner.example/cb'] })).toEqual({
      redirect_uris: [M.uriHttps],
    });
    expect(await refused({ redirect_uris: ['javascript:alert(1)'] })).toEqual({
      redirect_uris: [M.uriInvalid],
    });
    expect(await refused({ post_logout_redirect_uris: ['http://partner.example/'] })).toEqual({
      post_logout_redirect_uris: [M.uriHttps],
    });
    expect(await refused({ redirect_uris: [] })).toEqual({ redirect_uris: [M.redirectRequired] });
  });

  it('keeps app schemes and the device flow to public clients', async () => {
    expect(await refused({ redirect_uris: ['com.example.app:/oauth2redirect'] })).toEqual({
      redirect_uris: [M.appSchemePublicOnly],
    });
    expect(
      await refused({ grant_types: ['urn:ietf:params:oauth:grant-type:device_code'] }),
    ).toEqual({ grant_types: [M.deviceCodePublicOnly] });
    const phone = await create({
      type: 'public',
      first_party: true,
      redirect_uris: ['com.example.app:/oauth2redirect', 'http://127.0.0.1/cb'],
      grant_types: ['authorization_code', 'urn:ietf:params:oauth:grant-type:device_code'],
    });
    expect(phone.secret).toBeNull();
    expect(phone.client).toMatchObject({ type: 'public', has_secret: false });
  });

  it('takes grant types and scopes only from the allowed lists', async () => {
    const wrong = await api(e.create, {
      cookie: admin.cookie,
      body: { ...fields(), grant_types: ['implicit'], scopes: ['openid', 'admin'] } as never,
    });
    expect(wrong.status).toBe(422);
    expect(Object.keys(wrong.body.errors_validation as object).sort()).toEqual([
      'grant_types.0',
      'scopes.1',
    ]);
    expect(await refused({ grant_types: ['refresh_token'] })).toEqual({
      grant_types: [M.refreshAlone],
    });
    expect(await refused({ scopes: [] })).toEqual({ scopes: [M.scopeRequired] });
    expect(await refused({ logo_uri: 'http://partner.example/logo.png' })).toEqual({
      logo_uri: [M.logoHttps],
    });
  });

  it('checks an update against the client’s stored type', async () => {
    const { client: made } = await create();
    const answer = await api(e.update, {
      cookie: admin.cookie,
      body: {
        ...fields({ redirect_uris: ['com.example.app:/cb'] }),
        type: undefined,
        client_id: made.client_id,
      } as never,
    });
    expect(answer.status, answer.text).toBe(422);
    expect(answer.body.errors_validation).toEqual({ redirect_uris: [M.appSchemePublicOnly] });
    const missing = await api(e.view, {
      cookie: admin.cookie,
      query: { client_id: 'vpnc_nobody' },
    });
    expect(missing.status).toBe(404);
  });
});

describe('a confidential client’s life', () => {
  it('signs a person in, rotates and revokes its secret, and is disabled with its tokens', async () => {
    const made = await create();
    const { client_id: clientId } = made.client;
    const secret = String(made.secret);
    expect(secret).toMatch(/^vpncs_/);
    expect(made.client).toMatchObject({ has_secret: true, first_party: false, grants: 0 });

    // The secret is in that answer only: never in a view, a list or the audit log.
    const viewed = await api(e.view, { cookie: admin.cookie, query: { client_id: clientId } });
    const listed = await api(e.list, { cookie: admin.cookie, query: { search: clientId } });
    expect(listed.data.items.map((item) => item.client_id)).toEqual([clientId]);
    for (const answer of [viewed.text, listed.text]) expect(answer).not.toContain(secret);
    const [row] = await app.db
      .select()
      .from(oauthClients)
      .where(eq(oauthClients.clientId, clientId));
    expect(row?.secretSealed).not.toContain(secret);

    // A relying party signs a person in through the consent screen.
    const rp = await relyingParty(clientId, secret);
    const tokens = await signIn(rp);
    expect(tokens.claims()?.sub).toBe(String(person.user.id));
    const info = await client.fetchUserInfo(rp, tokens.access_token, String(person.user.id));
    expect(info.email).toBe(person.user.email);
    expect((await accountCall(tokens.access_token)).status).toBe(200);
    const withGrant = await api(e.view, { cookie: admin.cookie, query: { client_id: clientId } });
    expect(withGrant.data.client.grants).toBe(1);

    // Rotated: the old secret is refused at once, the new one works.
    const rotated = await api(e.rotateSecret, {
      cookie: admin.cookie,
      body: { client_id: clientId },
    });
    expect(rotated.status, rotated.text).toBe(200);
    const newSecret = String(rotated.data.secret);
    expect(newSecret).not.toBe(secret);
    expect(await refusal(client.refreshTokenGrant(rp, String(tokens.refresh_token)))).toBe(
      'invalid_client',
    );
    const rotatedRp = await relyingParty(clientId, newSecret);
    const refreshed = await client.refreshTokenGrant(rotatedRp, String(tokens.refresh_token));
    expect(refreshed.access_token).toBeTruthy();

    // Revoked: no secret authenticates until a new one is made.
    const revoked = await api(e.revokeSecret, {
      cookie: admin.cookie,
      body: { client_id: clientId },
    });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.data.client.has_secret).toBe(false);
    expect(
      await refusal(client.refreshTokenGrant(rotatedRp, String(refreshed.refresh_token))),
    ).toBe('invalid_client');
    const again = await api(e.revokeSecret, {
      cookie: admin.cookie,
      body: { client_id: clientId },
    });
    expect(again.status).toBe(409);
    const third = await api(e.rotateSecret, {
      cookie: admin.cookie,
      body: { client_id: clientId },
    });
    const thirdRp = await relyingParty(clientId, String(third.data.secret));
    const live = await client.refreshTokenGrant(thirdRp, String(refreshed.refresh_token));

    // Disabled: its access token stops, its refresh is refused, its grants are gone.
    const disabled = await api(e.disable, { cookie: admin.cookie, body: { client_id: clientId } });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.data.client.disabled_at).not.toBeNull();
    expect(disabled.data.client.grants).toBe(0);
    expect((await accountCall(live.access_token)).status).toBe(401);
    expect(await refusal(client.refreshTokenGrant(thirdRp, String(live.refresh_token)))).toBe(
      'invalid_client',
    );
    const left = await app.db.select().from(oidcModels).where(eq(oidcModels.clientId, clientId));
    expect(left).toEqual([]);

    // Enabled again: it may sign people in anew, but what it held stays dead.
    const enabled = await api(e.enable, { cookie: admin.cookie, body: { client_id: clientId } });
    expect(enabled.data.client.disabled_at).toBeNull();
    expect(await refusal(client.refreshTokenGrant(thirdRp, String(live.refresh_token)))).toBe(
      'invalid_grant',
    );
    const fresh = await signIn(thirdRp);
    expect((await accountCall(fresh.access_token)).status).toBe(200);

    const audit = (await auditOf(clientId)).filter((entry) =>
      entry.action.startsWith('oauth_clients.'),
    );
    expect(audit.map((entry) => entry.action)).toEqual([
      'oauth_clients.created',
      'oauth_clients.secret_rotated',
      'oauth_clients.secret_revoked',
      'oauth_clients.secret_rotated',
      'oauth_clients.disabled',
      'oauth_clients.enabled',
    ]);
    expect(audit.every((entry) => entry.actorId === admin.user.id)).toBe(true);
    expect(audit.find((entry) => entry.action === 'oauth_clients.disabled')?.data).toMatchObject({
      grants_revoked: 1,
    });
    const logged = JSON.stringify(audit);
    for (const value of [secret, newSecret, String(third.data.secret)]) {
      expect(logged).not.toContain(value);
    }
  });

  it('audits an update with what changed, and refuses secrets for a public client', async () => {
    const { client: made } = await create({
      type: 'public',
      redirect_uris: ['http://127.0.0.1/cb'],
    });
    const updated = await api(e.update, {
      cookie: admin.cookie,
      body: {
        client_id: made.client_id,
        name: 'Partner TV',
        first_party: true,
        redirect_uris: [],
        post_logout_redirect_uris: [],
        grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
        scopes: ['openid', 'vpn'],
        logo_uri: 'https://partner.example/logo.png',
      },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.data.client).toMatchObject({
      name: 'Partner TV',
      first_party: true,
      scopes: ['openid', 'vpn'],
      logo_uri: 'https://partner.example/logo.png',
    });
    const [entry] = (await auditOf(made.client_id)).filter(
      (row) => row.action === 'oauth_clients.updated',
    );
    expect(entry?.data).toMatchObject({
      changes: { name: { from: 'Partner portal', to: 'Partner TV' }, firstParty: { to: true } },
    });
    const rotate = await api(e.rotateSecret, {
      cookie: admin.cookie,
      body: { client_id: made.client_id },
    });
    expect(rotate.status).toBe(409);
  });
});
