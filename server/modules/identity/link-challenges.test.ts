import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { encodeChallenge } from '#shared/challenge.ts';
import { type AuditLogRow, auditLog, oneTimeTokens, type UserRow } from '../../db/schema/index.ts';
import { apiClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { createUser, signIn } from '../../test/test-users.ts';
import { issueToken } from './one-time-tokens.ts';
import { hashToken } from './secrets.ts';

const { app } = await createTestApp();
const db = app.db;
const call = apiClient(app);

const RESET = '/api/public/v1/auth/password/reset';
const SET = '/api/all/v1/auth/password/set';
const VERIFY = '/api/all/v1/auth/email/verify';
const ME = '/api/account/v1/users/get-auth-user';
const NEW_PASSWORD = 'N3w#password!';
const pair = { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };

/** A token of `type` for the user, as its e-mailed link carries it. */
async function linkFor(type: 'password_reset' | 'password_set' | 'email_verify', user: UserRow) {
  const token = await issueToken(db, type, user.id, user.email);
  return { token, challenge: encodeChallenge({ email: user.email, token }) };
}

/** The same token with its last characters changed: what a tampered link carries. */
const tampered = (email: string, token: string) =>
  encodeChallenge({ email, token: `${token.slice(0, -3)}${token.endsWith('a') ? 'b' : 'a'}zz` });

const expire = (token: string) =>
  db
    .update(oneTimeTokens)
    .set({ expiresAt: sql`now() - interval '1 minute'` })
    .where(eq(oneTimeTokens.tokenHash, hashToken(token)));

/** The refused-link entries written after `since`, newest last. */
async function refusalsSince(since: Date): Promise<AuditLogRow[]> {
  return db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'auth.link_refused'), sql`${auditLog.createdAt} >= ${since}`))
    .orderBy(auditLog.id);
}

/** Asserts the one refusal recorded since `since`, and that it holds no token. */
async function expectRefusal(
  since: Date,
  expected: Partial<AuditLogRow> & { data: Record<string, unknown> },
  tokens: string[],
) {
  const rows = await refusalsSince(since);
  expect(rows).toHaveLength(1);
  const [row] = rows;
  expect(row).toMatchObject({ ...expected, userAgent: 'vitest-agent', subjectType: 'user' });
  expect(row?.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  const stored = JSON.stringify(row);
  for (const token of tokens) {
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(hashToken(token));
  }
}

describe('password reset with a bad challenge', () => {
  it('refuses a tampered token and records it without the token', async () => {
    const user = await createUser(db);
    const { token } = await linkFor('password_reset', user);
    const since = new Date();
    const answer = await call('POST', RESET, {
      body: { challenge: tampered(user.email, token), ...pair },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code: 'bad_request', errors_info: ['errors.link_invalid'] });
    await expectRefusal(
      since,
      {
        actorId: null,
        subjectId: null,
        data: { link: 'password_reset', reason: 'unknown', email: user.email },
      },
      [token],
    );
    // The real link still works.
    const real = await call('POST', RESET, {
      body: { challenge: encodeChallenge({ email: user.email, token }), ...pair },
    });
    expect(real.status).toBe(200);
  });

  it('refuses an expired link, naming its owner in the log', async () => {
    const user = await createUser(db);
    const { token, challenge } = await linkFor('password_reset', user);
    await expire(token);
    const since = new Date();
    const answer = await call('POST', RESET, { body: { challenge, ...pair } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors_info).toEqual(['errors.link_invalid']);
    await expectRefusal(
      since,
      {
        actorId: null,
        subjectId: String(user.id),
        data: { link: 'password_reset', reason: 'expired', email: user.email },
      },
      [token],
    );
  });

  it("refuses one account's token sent with another's address, or a link of another kind", async () => {
    const owner = await createUser(db);
    const victim = await createUser(db);
    const { token } = await linkFor('password_reset', owner);
    const foreign = await call('POST', RESET, {
      body: { challenge: encodeChallenge({ email: victim.email, token }), ...pair },
    });
    expect(foreign.status).toBe(400);
    const setLink = await linkFor('password_set', victim);
    const otherKind = await call('POST', RESET, {
      body: { challenge: setLink.challenge, ...pair },
    });
    expect(otherKind.status).toBe(400);
    // Neither password changed: the victim still signs in with the old one.
    await signIn(call, victim.email);
  });

  it('refuses a challenge that does not decode, recording it as malformed', async () => {
    const since = new Date();
    for (const challenge of ['%%%', encodeChallenge({ email: 'a@example.com' }), 'e30']) {
      const answer = await call('POST', RESET, { body: { challenge, ...pair } });
      expect(answer.status).toBe(400);
      expect(answer.body.errors_info).toEqual(['errors.link_invalid']);
    }
    const rows = await refusalsSince(since);
    expect(rows.map((row) => row.data)).toEqual([
      { link: 'password_reset', reason: 'malformed' },
      { link: 'password_reset', reason: 'malformed' },
      { link: 'password_reset', reason: 'malformed' },
    ]);
  });

  it('validates the new password before looking at the link', async () => {
    const user = await createUser(db);
    const { challenge } = await linkFor('password_reset', user);
    const weak = await call('POST', RESET, {
      body: { challenge, password: 'passwordlong', password_confirmation: 'passwordlong' },
    });
    expect(weak.status).toBe(422);
    expect(weak.body.errors_validation).toEqual({
      password: ['input_errors.password_error_numbers', 'input_errors.password_error_symbols'],
    });
    expect((await call('POST', RESET, { body: { challenge, ...pair } })).status).toBe(200);
  });

  it('lets no stranger hold the real link back: forged links naming the address do not count against it', async () => {
    const user = await createUser(db);
    const { token, challenge } = await linkFor('password_reset', user);
    const since = new Date();
    // More forged attempts than any per-account budget, each from its own address.
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const answer = await call('POST', RESET, {
        body: { challenge: tampered(user.email.toUpperCase(), token), ...pair },
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual(Array(12).fill(400));
    // Each was refused and recorded, naming the address the link named.
    const refusals = await refusalsSince(since);
    expect(refusals).toHaveLength(12);
    expect(refusals.map((row) => row.data)).toEqual(
      Array(12).fill({ link: 'password_reset', reason: 'unknown', email: user.email }),
    );
    // The owner's link still works, and the new password with it.
    expect((await call('POST', RESET, { body: { challenge, ...pair } })).status).toBe(200);
    await signIn(call, user.email, NEW_PASSWORD);
  });

  it('limits attempts per client address, whatever the accounts', async () => {
    const ip = '198.51.100.60';
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const challenge = encodeChallenge({ email: `probe${i}@example.com`, token: 'x'.repeat(43) });
      statuses.push((await call('POST', RESET, { body: { challenge, ...pair }, ip })).status);
    }
    expect(statuses).toEqual([...Array(20).fill(400), 429]);
    const refused = await call('POST', RESET, {
      body: { challenge: encodeChallenge({ email: 'a@example.com', token: 'y' }), ...pair },
      ip,
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('password set', () => {
  it('needs a session', async () => {
    const user = await createUser(db, { passwordHash: null });
    const { challenge } = await linkFor('password_set', user);
    const answer = await call('POST', SET, { body: { challenge, ...pair } });
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('unauthenticated');
  });

  it("refuses another user's link with 403, recording both; the link still works for its owner", async () => {
    const owner = await createUser(db);
    const intruder = await createUser(db);
    const { token, challenge } = await linkFor('password_set', owner);
    const intruderCookie = await signIn(call, intruder.email);
    const since = new Date();
    const answer = await call('POST', SET, {
      body: { challenge, ...pair },
      cookie: intruderCookie,
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ code: 'forbidden', errors_info: ['errors.link_invalid'] });
    expect(answer.cookie).toBeUndefined();
    await expectRefusal(
      since,
      {
        actorId: intruder.id,
        subjectId: String(owner.id),
        data: { link: 'password_set', reason: 'foreign', email: owner.email },
      },
      [token],
    );
    const ownerCookie = await signIn(call, owner.email);
    const own = await call('POST', SET, { body: { challenge, ...pair }, cookie: ownerCookie });
    expect(own.status).toBe(200);
  });

  it('answers 422 to a weak or mismatched password, leaving the link unused', async () => {
    const user = await createUser(db);
    const { challenge } = await linkFor('password_set', user);
    const cookie = await signIn(call, user.email);
    const weak = await call('POST', SET, {
      body: { challenge, password: 'short1!', password_confirmation: 'short1!' },
      cookie,
    });
    expect(weak.status).toBe(422);
    expect(weak.body.errors_validation).toEqual({
      password: ['input_errors.password_error_length'],
    });
    const mismatch = await call('POST', SET, {
      body: { challenge, password: NEW_PASSWORD, password_confirmation: `${NEW_PASSWORD}?` },
      cookie,
    });
    expect(mismatch.body.errors_validation).toEqual({
      password_confirmation: ['input_errors.passwords_dont_match'],
    });
    expect((await call('POST', SET, { body: { challenge, ...pair }, cookie })).status).toBe(200);
  });

  it('limits attempts per account with 429', async () => {
    const user = await createUser(db);
    const { token, challenge } = await linkFor('password_set', user);
    const cookie = await signIn(call, user.email);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await call('POST', SET, {
        body: { challenge: tampered(user.email, token), ...pair },
        cookie,
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
    const refused = await call('POST', SET, { body: { challenge, ...pair }, cookie });
    expect(refused.status).toBe(429);
    expect(refused.body.errors_info).toEqual(['errors.too_many_requests']);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3_000);
  });
});

describe('e-mail verification with a bad challenge', () => {
  it('records tampered, expired and foreign links with the signed-in actor', async () => {
    const user = await createUser(db, { emailVerifiedAt: null });
    const other = await createUser(db, { emailVerifiedAt: null });
    const cookie = await signIn(call, user.email);
    const otherCookie = await signIn(call, other.email);
    const { token } = await linkFor('email_verify', user);

    let since = new Date();
    const bad = await call('POST', VERIFY, {
      body: { challenge: tampered(user.email, token) },
      cookie,
    });
    expect(bad.status).toBe(400);
    await expectRefusal(
      since,
      {
        actorId: user.id,
        data: { link: 'email_verify', reason: 'unknown', email: user.email },
      },
      [token],
    );

    since = new Date();
    const foreign = await call('POST', VERIFY, {
      body: { challenge: encodeChallenge({ email: user.email, token }) },
      cookie: otherCookie,
    });
    expect(foreign.status).toBe(403);
    await expectRefusal(
      since,
      {
        actorId: other.id,
        subjectId: String(user.id),
        data: { link: 'email_verify', reason: 'foreign', email: user.email },
      },
      [token],
    );

    await expire(token);
    since = new Date();
    const expired = await call('POST', VERIFY, {
      body: { challenge: encodeChallenge({ email: user.email, token }) },
      cookie,
    });
    expect(expired.status).toBe(400);
    await expectRefusal(
      since,
      {
        actorId: user.id,
        subjectId: String(user.id),
        data: { link: 'email_verify', reason: 'expired', email: user.email },
      },
      [token],
    );
    // Refusals leave the session as it was.
    expect((await call('POST', ME, { cookie })).body.user).toMatchObject({ activated: false });
  });
});
