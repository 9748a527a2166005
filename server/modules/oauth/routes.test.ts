import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, oauthAccounts, users } from '../../db/schema/index.ts';
import { apiClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { startTestOpenIdProvider, type TestPerson } from '../../test/test-openid-provider.ts';
import { hashPassword } from '../identity/password.ts';

const APP_URL = 'http://localhost:3000';
const BASE = '/api/public/v1/oauth-client';
const CALLBACK = `${APP_URL}${BASE}/callback/google`;
const STATE_COOKIE = 'oauth-state';
const PASSWORD = 'Str0ng#passw0rd';

const google = await startTestOpenIdProvider({ redirectUri: CALLBACK });
afterAll(() => google.close());

const { app } = await createTestApp({
  APP_URL,
  OAUTH_GOOGLE_CLIENT_ID: google.clientId,
  OAUTH_GOOGLE_CLIENT_SECRET: google.clientSecret,
  OAUTH_GOOGLE_ISSUER: google.issuer,
});
const db = app.db;
const call = apiClient(app);

let counter = 0;
function person(extra: Partial<TestPerson> = {}): TestPerson {
  counter += 1;
  const found: TestPerson = {
    sub: `google-${counter}-${Date.now()}`,
    email: `social${counter}-${Date.now()}@example.com`,
    email_verified: true,
    name: `Person ${counter}`,
    ...extra,
  };
  google.addPerson(found);
  return found;
}

/** GET authorize, as the popup opens it: the provider's URL and the state cookie. */
async function authorize(path = `${BASE}/authorize/google`) {
  const response = await app.inject({ method: 'GET', url: path });
  const cookie = response.cookies.find((c) => c.name === STATE_COOKIE);
  return {
    response,
    cookie,
    cookieHeader: `${STATE_COOKIE}=${cookie?.value ?? ''}`,
    location: new URL(String(response.headers.location)),
  };
}

/** Through the provider's login and our callback to the app page the popup lands on. */
async function toCallbackPage(who: TestPerson, lang?: string) {
  const { cookieHeader, location } = await authorize(
    `${BASE}/authorize/google${lang ? `?lang=${lang}` : ''}`,
  );
  const back = await google.signIn(location.href, who.sub);
  const callback = await app.inject({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    headers: { cookie: cookieHeader },
  });
  expect(callback.statusCode).toBe(303);
  return { page: new URL(String(callback.headers.location), APP_URL), cookieHeader };
}

/** What the opener posts to auth/token after reading the page's code and state. */
function tokenRequest(page: URL, cookie: string, overrides: Record<string, string> = {}) {
  return call('POST', `${BASE}/auth/token`, {
    cookie,
    body: {
      code: page.searchParams.get('code'),
      state: page.searchParams.get('state'),
      provider_id: 'google',
      response_type: 'code',
      ...overrides,
    },
  });
}

async function oneTimeToken(who: TestPerson): Promise<string> {
  const { page, cookieHeader } = await toCallbackPage(who);
  const answer = await tokenRequest(page, cookieHeader);
  expect(answer.status).toBe(200);
  return String(answer.body.token);
}

const login = (token: string) => call('POST', `${BASE}/auth/login`, { body: { token } });

async function userByEmail(email: string) {
  const [user] = await db.select().from(users).where(eq(users.email, email));
  return user;
}

async function audited(action: string, userId: number | undefined) {
  return db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.actorId, userId ?? -1)));
}

describe('providers and authorize', () => {
  it('lists only the configured providers, each with its authorize href', async () => {
    const { status, body } = await call('GET', `${BASE}/providers`);
    expect(status).toBe(200);
    expect(body).toEqual({
      items: [{ id: 'google', name: 'Google', href: `${BASE}/authorize/google` }],
      controls: { page: 1, per_page: 20, total: 1, last_page: 1 },
    });
  });

  it('answers the list shape with paging (§3)', async () => {
    const second = await call('GET', `${BASE}/providers?page=2&per_page=1`);
    expect(second.body).toEqual({
      items: [],
      controls: { page: 2, per_page: 1, total: 1, last_page: 1 },
    });
    const tooMany = await call('GET', `${BASE}/providers?per_page=1000`);
    expect(tooMany.status).toBe(422);
    expect(Object.keys(tooMany.body.errors_validation as object)).toEqual(['per_page']);
  });

  it('redirects to the provider with state, nonce and PKCE, sealing them in a cookie', async () => {
    const { response, cookie, location } = await authorize(`${BASE}/authorize/google?lang=fr`);
    expect(response.statusCode).toBe(302);
    expect(location.origin).toBe(google.issuer);
    const params = Object.fromEntries(location.searchParams);
    expect(params).toMatchObject({
      client_id: google.clientId,
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(params.state).toMatch(/^[\w-]{20,}$/);
    expect(params.nonce).toMatch(/^[\w-]{20,}$/);
    expect(params.code_challenge).toMatch(/^[\w-]{43}$/);
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: BASE,
      maxAge: 600,
    });
    // Sealed: unreadable in the browser, and it holds what the answer must be checked with.
    expect(cookie?.value).not.toContain(params.state);
    const sealed = JSON.parse(app.oauthStateBox.open(cookie?.value ?? ''));
    expect(sealed).toMatchObject({
      provider: 'google',
      state: params.state,
      nonce: params.nonce,
      lang: 'fr',
    });
    const challenge = createHash('sha256').update(sealed.codeVerifier).digest('base64url');
    expect(challenge).toBe(params.code_challenge);
  });
});

describe('the whole sign-in', () => {
  it('creates a verified account without a password, links it and signs it in', async () => {
    const who = person({ name: 'Grace Hopper' });
    const { page, cookieHeader } = await toCallbackPage(who, 'fr');
    expect(page.pathname).toBe('/fr/oauth/callback');
    expect(page.searchParams.get('provider')).toBe('google');
    expect(page.searchParams.get('code')).toBeTruthy();

    const answer = await tokenRequest(page, cookieHeader);
    expect(answer.status).toBe(200);
    const cleared = (answer.headers['set-cookie'] as string[] | string | undefined)?.toString();
    expect(cleared).toMatch(new RegExp(`${STATE_COOKIE}=;.*Path=${BASE}`));

    const signedIn = await login(String(answer.body.token));
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ email: who.email, activated: true });
    const me = await call('POST', '/api/account/v1/users/get-auth-user', {
      cookie: signedIn.cookie,
    });
    expect(me.body.user).toMatchObject({ email: who.email, name: 'Grace Hopper' });

    const user = await userByEmail(who.email);
    expect(user).toMatchObject({ passwordHash: null, locale: 'fr', name: 'Grace Hopper' });
    expect(user?.emailVerifiedAt).toBeInstanceOf(Date);
    const links = await db
      .select()
      .from(oauthAccounts)
      .where(eq(oauthAccounts.userId, user?.id ?? 0));
    expect(links).toMatchObject([{ provider: 'google', subject: who.sub, email: who.email }]);
    expect(await audited('auth.signed_up', user?.id)).toHaveLength(1);
    expect(await audited('oauth.signed_in', user?.id)).toHaveLength(1);
  });

  it('makes an unverified account for an address the provider has not verified', async () => {
    const who = person({ email_verified: false });
    expect((await login(await oneTimeToken(who))).body.user).toMatchObject({
      email: who.email,
      activated: false,
    });
    const mail = await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, who.email));
    expect(mail).toMatchObject([{ template: 'email_verify' }]);
  });

  it('signs the same person in again through the existing link', async () => {
    const who = person();
    expect((await login(await oneTimeToken(who))).status).toBe(200);
    google.addPerson({ ...who, email: `changed-${who.email}` });
    const again = await login(await oneTimeToken(who));
    expect(again.status).toBe(200);
    expect(again.body.user).toMatchObject({ email: who.email });
    const links = await db.select().from(oauthAccounts).where(eq(oauthAccounts.subject, who.sub));
    expect(links).toHaveLength(1);
  });

  async function passwordAccount(email: string, verified: boolean) {
    const [owner] = await db
      .insert(users)
      .values({
        email,
        username: `owner${counter}`,
        passwordHash: await hashPassword(PASSWORD),
        emailVerifiedAt: verified ? new Date() : null,
      })
      .returning();
    return owner;
  }

  it('links a password account with the same verified address', async () => {
    const who = person();
    const owner = await passwordAccount(who.email, true);
    const signedIn = await login(await oneTimeToken(who));
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ id: owner?.id, email: who.email });
    const links = await db.select().from(oauthAccounts).where(eq(oauthAccounts.subject, who.sub));
    expect(links).toMatchObject([{ userId: owner?.id }]);
    expect(await audited('oauth.linked', owner?.id)).toMatchObject([
      { subjectId: String(owner?.id), data: { provider: 'google' } },
    ]);
    const password = await call('POST', '/api/public/v1/auth/sign-in', {
      body: { email: who.email, password: PASSWORD },
    });
    expect(password.status).toBe(200);
  });

  it('takes an account whose address was never proved away from its password', async () => {
    const who = person();
    const owner = await passwordAccount(who.email, false);
    const squatter = await call('POST', '/api/public/v1/auth/sign-in', {
      body: { email: who.email, password: PASSWORD },
    });
    expect(squatter.status).toBe(200);
    expect((await login(await oneTimeToken(who))).body.user).toMatchObject({ id: owner?.id });
    const user = await userByEmail(who.email);
    expect(user?.passwordHash).toBeNull();
    expect(user?.emailVerifiedAt).toBeInstanceOf(Date);
    const after = await call('POST', '/api/account/v1/users/get-auth-user', {
      cookie: squatter.cookie,
    });
    expect(after.status).toBe(401);
    expect(await audited('oauth.linked', owner?.id)).toMatchObject([
      { data: { provider: 'google', password_removed: true } },
    ]);
  });

  it('refuses an unverified address that belongs to an existing account', async () => {
    const who = person({ email_verified: false });
    await db.insert(users).values({ email: who.email, username: `taken${counter}` });
    const { page, cookieHeader } = await toCallbackPage(who);
    const answer = await tokenRequest(page, cookieHeader);
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      code: 'conflict',
      errors_info: ['errors.oauth_email_unverified'],
    });
    expect(await db.select().from(oauthAccounts).where(eq(oauthAccounts.subject, who.sub))).toEqual(
      [],
    );
  });

  it('answers code 102 with a challenge when the account has two-factor on', async () => {
    const who = person();
    expect((await login(await oneTimeToken(who))).status).toBe(200);
    await db
      .update(users)
      .set({
        twoFactorSecret: app.totpBox.seal('JBSWY3DPEHPK3PXP'),
        twoFactorConfirmedAt: new Date(),
      })
      .where(eq(users.email, who.email));
    const answer = await login(await oneTimeToken(who));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ code: 102, challenge: expect.any(String) });
    expect(answer.cookie).toBeUndefined();
  });

  it('refuses a blocked account', async () => {
    const who = person();
    expect((await login(await oneTimeToken(who))).status).toBe(200);
    await db.update(users).set({ blockedAt: new Date() }).where(eq(users.email, who.email));
    const { page, cookieHeader } = await toCallbackPage(who);
    const answer = await tokenRequest(page, cookieHeader);
    expect(answer.status).toBe(403);
    expect(answer.body.errors_info).toEqual(['errors.account_blocked']);
  });
});

describe('what is refused', () => {
  it('refuses a state that is not this browser’s, and a missing cookie', async () => {
    const { page, cookieHeader } = await toCallbackPage(person());
    const wrong = await tokenRequest(page, cookieHeader, { state: 'x'.repeat(43) });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      code: 'bad_request',
      errors_info: ['errors.oauth_state_mismatch'],
    });
    const cookieless = await tokenRequest(page, '');
    expect(cookieless.body.errors_info).toEqual(['errors.oauth_state_mismatch']);
  });

  it('refuses a tampered or expired state cookie', async () => {
    const { page, cookieHeader } = await toCallbackPage(person());
    const middle = Math.floor(cookieHeader.length / 2);
    const flipped = `${cookieHeader.slice(0, middle)}${cookieHeader[middle] === 'A' ? 'B' : 'A'}${cookieHeader.slice(middle + 1)}`;
    expect(flipped).not.toBe(cookieHeader);
    expect((await tokenRequest(page, flipped)).body.errors_info).toEqual([
      'errors.oauth_state_mismatch',
    ]);
    const stale = app.oauthStateBox.seal(
      JSON.stringify({
        provider: 'google',
        state: page.searchParams.get('state'),
        codeVerifier: 'v'.repeat(43),
        nonce: 'n'.repeat(43),
        lang: 'en',
        createdAt: Date.now() - 11 * 60_000,
      }),
    );
    const expired = await tokenRequest(page, `${STATE_COOKIE}=${stale}`);
    expect(expired.body.errors_info).toEqual(['errors.oauth_state_mismatch']);
  });

  it('answers provider_failed when the provider refuses the code (a replayed code)', async () => {
    const { page, cookieHeader } = await toCallbackPage(person());
    expect((await tokenRequest(page, cookieHeader)).status).toBe(200);
    const replay = await tokenRequest(page, cookieHeader);
    expect(replay.status).toBe(400);
    expect(replay.body.errors_info).toEqual(['errors.oauth_provider_failed']);
  });

  it('audits every refused exchange with its reason', async () => {
    const failures = async () =>
      (
        await db
          .select()
          .from(auditLog)
          .where(eq(auditLog.action, 'oauth.sign_in_failed'))
          .orderBy(auditLog.id)
      ).map((row) => ({ subject: row.subjectId, actor: row.actorId, ...row.data }));
    const before = (await failures()).length;

    const forged = await toCallbackPage(person());
    await tokenRequest(forged.page, forged.cookieHeader, { state: 'y'.repeat(43) });
    const replayed = await toCallbackPage(person());
    await tokenRequest(replayed.page, replayed.cookieHeader);
    await tokenRequest(replayed.page, replayed.cookieHeader);
    const unproved = person({ email_verified: false });
    await db.insert(users).values({ email: unproved.email, username: `held${counter}` });
    const stranger = await toCallbackPage(unproved);
    expect((await tokenRequest(stranger.page, stranger.cookieHeader)).status).toBe(409);

    expect((await failures()).slice(before)).toEqual([
      { subject: 'google', actor: null, reason: 'state_mismatch' },
      { subject: 'google', actor: null, reason: 'provider_failed' },
      { subject: 'google', actor: null, reason: 'email_unverified', email: unproved.email },
    ]);
  });

  it('signs in once per one-time token', async () => {
    const token = await oneTimeToken(person());
    expect((await login(token)).status).toBe(200);
    const again = await login(token);
    expect(again.status).toBe(400);
    expect(again.body.errors_info).toEqual(['errors.link_invalid']);
    expect((await login('not-a-challenge')).body.errors_info).toEqual(['errors.link_invalid']);
  });

  it('answers 404 provider_disabled on every endpoint of a provider without keys', async () => {
    const notFound = { code: 'not_found', errors_info: ['errors.oauth_provider_disabled'] };
    const start = await call('GET', `${BASE}/authorize/apple`);
    expect(start.status).toBe(404);
    expect(start.body).toEqual(notFound);
    expect((await call('GET', `${BASE}/callback/apple?code=c&state=s`)).body).toEqual(notFound);
    const token = await call('POST', `${BASE}/auth/token`, {
      body: { code: 'c', state: 's', provider_id: 'apple', response_type: 'code' },
    });
    expect(token.status).toBe(404);
    expect(token.body).toEqual(notFound);
  });

  it('forwards the provider’s error to the app page', async () => {
    const { cookieHeader } = await authorize(`${BASE}/authorize/google?lang=nl`);
    const answer = await app.inject({
      method: 'GET',
      url: `${BASE}/callback/google?error=access_denied&state=abc`,
      headers: { cookie: cookieHeader },
    });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe(
      '/nl/oauth/callback?provider=google&error=access_denied&state=abc',
    );
  });
});
