import { and, desc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MAX_PASSKEYS, PASSKEY_MESSAGES, passkeyEndpoints } from '#shared/contracts/passkeys.ts';
import { auditLog, passkeyChallenges, passkeys } from '../../db/schema/index.ts';
import { endpointClient } from '../../test/api-client.ts';
import {
  addPasskey,
  bothCookies,
  startRegistration,
  startSignIn,
  TEST_ORIGIN,
} from '../../test/passkey-kit.ts';
import { SoftwareAuthenticator } from '../../test/software-authenticator.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser } from '../../test/test-sessions.ts';
import { TEST_PASSWORD } from '../../test/test-users.ts';

// Adding, naming and removing passkeys on the security page (the own account's calls), with
// a software authenticator answering the ceremonies as a person's device would.

const { app } = await createTestApp();
const db = app.db;
const call = endpointClient(app);
const e = passkeyEndpoints;

/** The newest audit row of `action` about the user. */
async function lastAudit(userId: number, action: string) {
  const [row] = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.subjectId, String(userId)), sql`${auditLog.action} = ${action}`))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row;
}

async function list(cookie: string) {
  const answer = await call(e.list.account, { cookie });
  expect(answer.status, answer.text).toBe(200);
  return answer.data.items;
}

describe('adding a passkey', () => {
  it('asks for the password first, and offers a discoverable, user-verifying credential', async () => {
    const owner = await signedInUser(app);
    const wrong = await call(e.registrationOptions.account, {
      cookie: owner.cookie,
      body: { password: 'Wr0ng#password' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors_validation).toEqual({ password: ['errors.password_incorrect'] });
    expect(await lastAudit(owner.user.id, 'account.password_check_failed')).toBeDefined();

    const { options, ceremony } = await startRegistration(call, owner.cookie);
    expect(ceremony).toMatch(/^passkey_register=/);
    expect(options).toMatchObject({
      rp: { id: 'localhost', name: 'Shieldline VPN' },
      user: { name: owner.user.email },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    // Only the hash of the cookie's id is stored.
    const [row] = await db
      .select()
      .from(passkeyChallenges)
      .where(eq(passkeyChallenges.challenge, options.challenge));
    expect(row).toMatchObject({ purpose: 'register', userId: owner.user.id });
    expect(ceremony).not.toContain(row?.idHash);
  });

  it('keeps the passkey the authenticator made, named, and lists it', async () => {
    const owner = await signedInUser(app);
    expect(await list(owner.cookie)).toEqual([]);
    const { passkey } = await addPasskey(call, owner.cookie, undefined, '  Work laptop ');
    expect(passkey).toMatchObject({ name: 'Work laptop', last_used_at: null, backed_up: false });
    expect(Object.keys(passkey).sort()).toEqual(
      ['backed_up', 'created_at', 'id', 'last_used_at', 'name'].sort(),
    );
    expect(await list(owner.cookie)).toEqual([passkey]);
    const listed = await call(e.list.account, { cookie: owner.cookie });
    expect(listed.data.limit).toBe(MAX_PASSKEYS);
    const [stored] = await db.select().from(passkeys).where(eq(passkeys.id, passkey.id));
    expect(stored).toMatchObject({ userId: owner.user.id, counter: 1, transports: ['internal'] });
    expect((await lastAudit(owner.user.id, 'passkeys.added'))?.data).toEqual({
      passkey_id: passkey.id,
      name: 'Work laptop',
    });

    // The next registration asks the authenticator not to make a second one for this account.
    const { options } = await startRegistration(call, owner.cookie);
    expect(options.excludeCredentials?.map((item) => item.id)).toEqual([stored?.credentialId]);
  });

  it('answers each challenge once', async () => {
    const owner = await signedInUser(app);
    const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
    const { options, ceremony } = await startRegistration(call, owner.cookie);
    const credential = authenticator.register(options);
    const cookie = bothCookies(owner.cookie, ceremony);
    const first = await call(e.register.account, { cookie, body: { name: 'One', credential } });
    expect(first.status, first.text).toBe(201);
    // The answer cleared the ceremony cookie; a replay that keeps it finds nothing.
    expect(String(first.headers['set-cookie'])).toMatch(/passkey_register=;/);
    const again = await call(e.register.account, { cookie, body: { name: 'Two', credential } });
    expect(again.status).toBe(400);
    expect(again.body.errors_info).toEqual([PASSKEY_MESSAGES.expired]);
    expect((await lastAudit(owner.user.id, 'passkeys.refused'))?.data).toMatchObject({
      ceremony: 'register',
      reason: 'challenge',
    });
    expect(await list(owner.cookie)).toHaveLength(1);
  });

  it('refuses an expired challenge, and one without its cookie', async () => {
    const owner = await signedInUser(app);
    const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
    const { options, ceremony } = await startRegistration(call, owner.cookie);
    await db
      .update(passkeyChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passkeyChallenges.challenge, options.challenge));
    const credential = authenticator.register(options);
    const expired = await call(e.register.account, {
      cookie: bothCookies(owner.cookie, ceremony),
      body: { name: 'Late', credential },
    });
    expect(expired.status).toBe(400);
    expect(expired.body.errors_info).toEqual([PASSKEY_MESSAGES.expired]);

    const fresh = await startRegistration(call, owner.cookie);
    const noCookie = await call(e.register.account, {
      cookie: owner.cookie,
      body: { name: 'Lost', credential: authenticator.register(fresh.options) },
    });
    expect(noCookie.status).toBe(400);
    expect(await list(owner.cookie)).toEqual([]);
  });

  it("refuses another person's challenge", async () => {
    const owner = await signedInUser(app);
    const other = await signedInUser(app);
    const { options, ceremony } = await startRegistration(call, owner.cookie);
    const answer = await call(e.register.account, {
      cookie: bothCookies(other.cookie, ceremony),
      body: {
        name: 'Mine now',
        credential: new SoftwareAuthenticator(TEST_ORIGIN).register(options),
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors_info).toEqual([PASSKEY_MESSAGES.expired]);
    expect(await list(other.cookie)).toEqual([]);
  });

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['another RP id', { rpId: 'evil.example' }],
    ['a sign-in answer', { type: 'webauthn.get' }],
    ['another challenge', { challenge: 'c29tZXRoaW5nIGVsc2U' }],
    ['no user verification', { userVerified: false }],
  ])('refuses a credential made for %s, and audits it', async (_case, overrides) => {
    const owner = await signedInUser(app);
    const { options, ceremony } = await startRegistration(call, owner.cookie);
    const credential = new SoftwareAuthenticator(TEST_ORIGIN).register(options, overrides);
    const answer = await call(e.register.account, {
      cookie: bothCookies(owner.cookie, ceremony),
      body: { name: 'Bent', credential },
    });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.errors_info).toEqual([PASSKEY_MESSAGES.invalid]);
    expect((await lastAudit(owner.user.id, 'passkeys.refused'))?.data).toMatchObject({
      ceremony: 'register',
      reason: 'invalid',
    });
    expect(await list(owner.cookie)).toEqual([]);
  });

  it('refuses a garbled attestation with its error, never a 500', async () => {
    const owner = await signedInUser(app);
    const { options, ceremony } = await startRegistration(call, owner.cookie);
    const credential = new SoftwareAuthenticator(TEST_ORIGIN).register(options);
    credential.response.attestationObject = Buffer.from('not cbor at all').toString('base64url');
    const answer = await call(e.register.account, {
      cookie: bothCookies(owner.cookie, ceremony),
      body: { name: 'Garbled', credential },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors_info).toEqual([PASSKEY_MESSAGES.invalid]);
  });

  it('refuses the same credential on a second account', async () => {
    const first = await signedInUser(app);
    const { authenticator } = await addPasskey(call, first.cookie);
    const second = await signedInUser(app);
    const { options, ceremony } = await startRegistration(call, second.cookie);
    const answer = await call(e.register.account, {
      cookie: bothCookies(second.cookie, ceremony),
      body: { name: 'Copy', credential: authenticator.register(options) },
    });
    expect(answer.status).toBe(409);
    expect(answer.body.errors_info).toEqual([PASSKEY_MESSAGES.alreadyAdded]);
    expect(await list(second.cookie)).toEqual([]);
    expect(await list(first.cookie)).toHaveLength(1);
  });

  it(`keeps at most ${MAX_PASSKEYS} passkeys an account`, async () => {
    const owner = await signedInUser(app);
    await db.insert(passkeys).values(
      Array.from({ length: MAX_PASSKEYS }, (_, index) => ({
        userId: owner.user.id,
        credentialId: `limit-${owner.user.id}-${index}`,
        publicKey: 'AA',
        name: `Key ${index}`,
      })),
    );
    const answer = await call(e.registrationOptions.account, {
      cookie: owner.cookie,
      body: { password: TEST_PASSWORD },
    });
    expect(answer.status).toBe(409);
    expect(answer.body.errors_info).toEqual([PASSKEY_MESSAGES.tooMany]);
  });

  it('serves staff on the dashboard base, for their own account', async () => {
    const author = await signedInUser(app, { role: 'AUTHOR' });
    const options = await call(e.registrationOptions.dashboard, {
      cookie: author.cookie,
      body: { password: TEST_PASSWORD },
    });
    expect(options.status, options.text).toBe(200);
    const listed = await call(e.list.dashboard, { cookie: author.cookie });
    expect(listed.data.items).toEqual([]);
  });
});

describe('naming and removing passkeys', () => {
  it('renames a passkey, audited with both names', async () => {
    const owner = await signedInUser(app);
    const { passkey } = await addPasskey(call, owner.cookie, undefined, 'Phone');
    const answer = await call(e.rename.account, {
      cookie: owner.cookie,
      body: { id: passkey.id, name: 'Old phone' },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.data.passkey).toEqual({ ...passkey, name: 'Old phone' });
    expect((await lastAudit(owner.user.id, 'passkeys.renamed'))?.data).toEqual({
      passkey_id: passkey.id,
      from: 'Phone',
      to: 'Old phone',
    });
    const blank = await call(e.rename.account, {
      cookie: owner.cookie,
      body: { id: passkey.id, name: '   ' },
    });
    expect(blank.status).toBe(422);
    expect(blank.body.errors_validation).toEqual({ name: ['input_errors.field_is_required'] });
  });

  it('removes a passkey after the password; it no longer signs in', async () => {
    const owner = await signedInUser(app);
    const { passkey, authenticator } = await addPasskey(call, owner.cookie);
    const wrong = await call(e.remove.account, {
      cookie: owner.cookie,
      body: { id: passkey.id, password: 'Wr0ng#password' },
    });
    expect(wrong.status).toBe(422);
    expect(await list(owner.cookie)).toHaveLength(1);

    const removed = await call(e.remove.account, {
      cookie: owner.cookie,
      body: { id: passkey.id, password: TEST_PASSWORD },
    });
    expect(removed.status, removed.text).toBe(200);
    expect(await list(owner.cookie)).toEqual([]);
    expect((await lastAudit(owner.user.id, 'passkeys.removed'))?.data).toEqual({
      passkey_id: passkey.id,
      name: 'Test key',
    });

    const { options, ceremony } = await startSignIn(call);
    const signIn = await call(e.signIn, {
      cookie: ceremony,
      body: { credential: authenticator.authenticate(options) },
    });
    expect(signIn.status).toBe(401);
    expect(signIn.body.errors_info).toEqual([PASSKEY_MESSAGES.unknown]);
    expect(signIn.cookie).toBeUndefined();
  });

  it("treats another person's passkey as unknown: neither renamed nor removed", async () => {
    const owner = await signedInUser(app);
    const { passkey } = await addPasskey(call, owner.cookie, undefined, 'Mine');
    const intruder = await signedInUser(app);
    const rename = await call(e.rename.account, {
      cookie: intruder.cookie,
      body: { id: passkey.id, name: 'Theirs' },
    });
    expect(rename.status).toBe(404);
    expect(rename.body.errors_info).toEqual([PASSKEY_MESSAGES.notFound]);
    const remove = await call(e.remove.account, {
      cookie: intruder.cookie,
      body: { id: passkey.id, password: TEST_PASSWORD },
    });
    expect(remove.status).toBe(404);
    expect(await list(owner.cookie)).toEqual([passkey]);
    expect(await lastAudit(owner.user.id, 'passkeys.renamed')).toBeUndefined();
  });
});

describe('passkeys off', () => {
  it('answers 404 where APP_URL is plain http on a public name', async () => {
    const { app: plain } = await createTestApp({ APP_URL: 'http://vpn.example.com' });
    const plainCall = endpointClient(plain);
    const options = await plainCall(e.signInOptions);
    expect(options.status).toBe(404);
    expect(options.body.errors_info).toEqual([PASSKEY_MESSAGES.unavailable]);
  });
});
