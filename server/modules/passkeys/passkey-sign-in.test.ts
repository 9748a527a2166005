import { and, desc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, authEndpoints } from '#shared/contracts/auth.ts';
import { PASSKEY_MESSAGES, passkeyEndpoints } from '#shared/contracts/passkeys.ts';
import { auditLog, passkeyChallenges, passkeys, sessions, users } from '../../db/schema/index.ts';
import { type EndpointCaller, endpointClient } from '../../test/api-client.ts';
import { addPasskey, startSignIn, TEST_ORIGIN } from '../../test/passkey-kit.ts';
import {
  type CeremonyOverrides,
  flipBit,
  SoftwareAuthenticator,
} from '../../test/software-authenticator.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser } from '../../test/test-sessions.ts';

// Signing in with a passkey: the answer a real authenticator signs, then each way it can be
// wrong (another site, an altered signature, a copied key, a replayed or stale challenge, an
// account that may not sign in), each refused with its own message and audited, never a 500.

const { app } = await createTestApp();
const db = app.db;
const call = endpointClient(app);
const e = passkeyEndpoints;

/** A customer with one passkey, signed out (the session that added it is not used again). */
async function customerWithPasskey(options: { counting?: boolean } = {}) {
  const session = await signedInUser(app);
  const authenticator = new SoftwareAuthenticator(TEST_ORIGIN, options);
  const { passkey } = await addPasskey(call, session.cookie, authenticator);
  return { user: session.user, authenticator, passkey };
}

/** One passkey sign-in: options, the authenticator's answer (bent by `bend`), verify. */
async function signInWith(
  authenticator: SoftwareAuthenticator,
  overrides: CeremonyOverrides = {},
  bend: (credential: ReturnType<SoftwareAuthenticator['authenticate']>) => void = () => {},
  caller: EndpointCaller = call,
) {
  const { options, ceremony } = await startSignIn(caller);
  const credential = authenticator.authenticate(options, overrides);
  bend(credential);
  return caller(e.signIn, { cookie: ceremony, body: { credential } });
}

async function refusals(userId: number | null) {
  const rows = await db
    .select()
    .from(auditLog)
    .where(
      and(
        sql`${auditLog.action} = 'passkeys.refused'`,
        userId === null
          ? sql`${auditLog.subjectId} is null`
          : eq(auditLog.subjectId, String(userId)),
      ),
    )
    .orderBy(desc(auditLog.id));
  return rows.map((row) => row.data as Record<string, unknown>);
}

async function sessionCount(userId: number) {
  return (await db.select().from(sessions).where(eq(sessions.userId, userId))).length;
}

describe('signing in with a passkey', () => {
  it('asks for any passkey of this site, user verification required', async () => {
    const { options, ceremony } = await startSignIn(call);
    expect(ceremony).toMatch(/^passkey_sign_in=/);
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(options.allowCredentials ?? []).toEqual([]);
    const [row] = await db
      .select()
      .from(passkeyChallenges)
      .where(eq(passkeyChallenges.challenge, options.challenge));
    expect(row).toMatchObject({ purpose: 'sign-in', userId: null });
  });

  it('signs in as a password and two-factor sign-in does: a session, its audit row, the user', async () => {
    const { user, authenticator, passkey } = await customerWithPasskey();
    // Two-factor on: the passkey stands for both factors, so no code 102 follows.
    await db
      .update(users)
      .set({ twoFactorSecret: 'sealed', twoFactorConfirmedAt: new Date() })
      .where(eq(users.id, user.id));
    const before = await sessionCount(user.id);
    const answer = await signInWith(authenticator);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({
      user: expect.objectContaining({ id: user.id, email: user.email }),
    });
    expect(answer.body).not.toHaveProperty('code');
    expect(answer.cookie).toBeDefined();
    expect(await sessionCount(user.id)).toBe(before + 1);
    const me = await call(authEndpoints.getAuthUser, { cookie: answer.cookie });
    expect(me.status).toBe(200);
    expect(me.data.user.id).toBe(user.id);
    const listed = await call(passkeyEndpoints.list.account, { cookie: answer.cookie });
    expect(listed.data.items[0]?.last_used_at).not.toBeNull();
    const [stored] = await db.select().from(passkeys).where(eq(passkeys.id, passkey.id));
    expect(stored?.counter).toBe(2);
    const [signedIn] = await db
      .select()
      .from(auditLog)
      .where(
        and(sql`${auditLog.action} = 'auth.signed_in'`, eq(auditLog.subjectId, String(user.id))),
      )
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(signedIn?.data).toEqual({ method: 'passkey', passkey_id: passkey.id });
    // The ceremony cookie is spent with the answer.
    expect(String(answer.headers['set-cookie'])).toMatch(/passkey_sign_in=;/);
    // And the browser gets its device cookie, as after a password sign-in.
    expect(String(answer.headers['set-cookie'])).toMatch(/\bdevice=v1\.\d+\./);
  });

  it('accepts a passkey whose counter stays at 0 (synced passkeys do not count)', async () => {
    const { authenticator } = await customerWithPasskey({ counting: false });
    expect((await signInWith(authenticator)).status).toBe(200);
    expect((await signInWith(authenticator)).status).toBe(200);
  });

  it.each<[string, CeremonyOverrides]>([
    ['another origin', { origin: 'https://evil.example' }],
    ['another RP id', { rpId: 'evil.example' }],
    ['a registration answer', { type: 'webauthn.create' }],
    ['another challenge', { challenge: 'c29tZXRoaW5nIGVsc2U' }],
    ['no user verification', { userVerified: false }],
  ])('refuses an answer made for %s, and audits it', async (_case, overrides) => {
    const { user, authenticator } = await customerWithPasskey();
    const before = await sessionCount(user.id);
    const answer = await signInWith(authenticator, overrides);
    expect(answer.status, answer.text).toBe(401);
    expect(answer.body.errors_info).toEqual([PASSKEY_MESSAGES.invalid]);
    expect(answer.cookie).toBeUndefined();
    expect(await sessionCount(user.id)).toBe(before);
    expect((await refusals(user.id))[0]).toMatchObject({ ceremony: 'sign-in', reason: 'invalid' });
  });

  it.each([
    ['signature', 'signature'],
    ['authenticatorData', 'authenticatorData'],
    ['clientDataJSON', 'clientDataJSON'],
  ] as const)('refuses an assertion whose %s was altered', async (_case, field) => {
    const { user, authenticator, passkey } = await customerWithPasskey();
    const answer = await signInWith(authenticator, {}, (credential) => {
      // Past the RP id hash and flags of authenticatorData: its counter.
      credential.response[field] = flipBit(
        credential.response[field],
        field === 'authenticatorData' ? 35 : 8,
      );
    });
    expect(answer.status, answer.text).toBe(401);
    expect(answer.body.errors_info).toEqual([PASSKEY_MESSAGES.invalid]);
    expect((await refusals(user.id))[0]).toMatchObject({
      ceremony: 'sign-in',
      reason: 'invalid',
      passkey_id: passkey.id,
    });
    const [stored] = await db.select().from(passkeys).where(eq(passkeys.id, passkey.id));
    expect(stored?.lastUsedAt).toBeNull();
  });

  it('refuses garbage in every field with its error, never a 500', async () => {
    const { authenticator } = await customerWithPasskey();
    for (const field of ['signature', 'authenticatorData', 'clientDataJSON'] as const) {
      const answer = await signInWith(authenticator, {}, (credential) => {
        credential.response[field] = Buffer.from('{"no": "thing"}').toString('base64url');
      });
      expect(answer.status, `${field}: ${answer.text}`).toBe(401);
      expect(answer.body.errors_info).toEqual([PASSKEY_MESSAGES.invalid]);
    }
  });

  it('refuses a counter that goes backwards: a copied key, audited as such', async () => {
    const { user, authenticator, passkey } = await customerWithPasskey();
    expect((await signInWith(authenticator)).status).toBe(200);
    // A copy of the key that has signed less often than the original.
    authenticator.counter = 0;
    const copy = await signInWith(authenticator);
    expect(copy.status).toBe(401);
    expect(copy.body.errors_info).toEqual([PASSKEY_MESSAGES.counter]);
    expect(copy.cookie).toBeUndefined();
    expect((await refusals(user.id))[0]).toEqual({
      ceremony: 'sign-in',
      reason: 'counter',
      passkey_id: passkey.id,
      stored: 2,
      received: 1,
    });
    // An equal counter is as suspect as a lower one (a replayed count); the stored one stays.
    authenticator.counter = 1;
    expect((await signInWith(authenticator)).body.errors_info).toEqual([PASSKEY_MESSAGES.counter]);
    const [stored] = await db.select().from(passkeys).where(eq(passkeys.id, passkey.id));
    expect(stored?.counter).toBe(2);
  });

  it('refuses a counter that drops to 0 once it counted', async () => {
    const { user, authenticator } = await customerWithPasskey();
    authenticator.counter = -1;
    const answer = await signInWith(authenticator);
    expect(answer.status).toBe(401);
    expect(answer.body.errors_info).toEqual([PASSKEY_MESSAGES.counter]);
    expect((await refusals(user.id))[0]).toMatchObject({
      reason: 'counter',
      stored: 1,
      received: 0,
    });
  });

  it('answers a challenge once', async () => {
    const { authenticator } = await customerWithPasskey();
    const { options, ceremony } = await startSignIn(call);
    const credential = authenticator.authenticate(options);
    const first = await call(e.signIn, { cookie: ceremony, body: { credential } });
    expect(first.status).toBe(200);
    const replay = await call(e.signIn, { cookie: ceremony, body: { credential } });
    expect(replay.status).toBe(400);
    expect(replay.body.errors_info).toEqual([PASSKEY_MESSAGES.expired]);
    expect(replay.cookie).toBeUndefined();
    expect((await refusals(null))[0]).toMatchObject({ ceremony: 'sign-in', reason: 'challenge' });
  });

  it('refuses an expired challenge, and an answer without its cookie', async () => {
    const { user, authenticator } = await customerWithPasskey();
    const { options, ceremony } = await startSignIn(call);
    await db
      .update(passkeyChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passkeyChallenges.challenge, options.challenge));
    const late = await call(e.signIn, {
      cookie: ceremony,
      body: { credential: authenticator.authenticate(options) },
    });
    expect(late.status).toBe(400);
    expect(late.body.errors_info).toEqual([PASSKEY_MESSAGES.expired]);
    const fresh = await startSignIn(call);
    const noCookie = await call(e.signIn, {
      body: { credential: authenticator.authenticate(fresh.options) },
    });
    expect(noCookie.status).toBe(400);
    expect(await sessionCount(user.id)).toBe(1);
  });

  it('refuses a blocked account, after the key proved itself', async () => {
    const { user, authenticator } = await customerWithPasskey();
    await db.update(users).set({ blockedAt: new Date() }).where(eq(users.id, user.id));
    const answer = await signInWith(authenticator);
    expect(answer.status).toBe(403);
    expect(answer.body.errors_info).toEqual([AUTH_MESSAGES.accountBlocked]);
    expect(answer.cookie).toBeUndefined();
    expect((await refusals(user.id))[0]).toMatchObject({ reason: 'blocked' });
  });

  it('knows no passkey of a deleted account', async () => {
    const { user, authenticator } = await customerWithPasskey();
    await db.delete(users).where(eq(users.id, user.id));
    const answer = await signInWith(authenticator);
    expect(answer.status).toBe(401);
    expect(answer.body.errors_info).toEqual([PASSKEY_MESSAGES.unknown]);
  });

  it("refuses a user handle that is not the key owner's", async () => {
    const { user, authenticator } = await customerWithPasskey();
    const answer = await signInWith(authenticator, { userHandle: 'c29tZW9uZS1lbHNl' });
    expect(answer.status).toBe(401);
    expect(answer.body.errors_info).toEqual([PASSKEY_MESSAGES.invalid]);
    expect((await refusals(user.id))[0]).toMatchObject({ reason: 'user_handle' });
  });

  it('shares the sign-in limit of an address with password sign-ins', async () => {
    const { authenticator } = await customerWithPasskey();
    const ip = '203.0.113.77';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 31; attempt += 1) {
      const answer = await call(e.signIn, {
        ip,
        body: { credential: authenticator.authenticate({ challenge: 'AAAA', rpId: 'localhost' }) },
      });
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, 30).every((status) => status === 400)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
