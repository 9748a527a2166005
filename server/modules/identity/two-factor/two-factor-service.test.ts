import { and, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../../db/schema/index.ts';
import { CREDENTIAL_LIMITS } from '../../../platform/rate-limit/limits.ts';
import { apiClient } from '../../../test/api-client.ts';
import { createTestApp } from '../../../test/test-app.ts';
import { createUser, signIn, TEST_PASSWORD } from '../../../test/test-users.ts';

const { app } = await createTestApp();
const db = app.db;
const call = apiClient(app);

const TWO_FACTOR = '/api/account/v1/profile/two-factor-authentication';
const ME = '/api/account/v1/users/get-auth-user';
const SIGN_IN = '/api/public/v1/auth/sign-in';
const SECOND_STEP = '/api/public/v1/auth/sign-in/two-factor';
const LIMIT = CREDENTIAL_LIMITS.twoFactorPerAccount.limit;

function codeFor(secret: string, offset = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + offset * 30_000 });
}

/** A code that is none of the secret's codes around now. */
function wrongCodeFor(secret: string): string {
  const near = new Set([-1, 0, 1, 2].map((offset) => codeFor(secret, offset)));
  let code = 100_000;
  while (near.has(String(code))) code += 1;
  return String(code);
}

async function startSetup() {
  const user = await createUser(db);
  const cookie = await signIn(call, user.email);
  await call('POST', `${TWO_FACTOR}/enable`, { cookie });
  const qr = await call('GET', `${TWO_FACTOR}/get-qr`, { cookie });
  return { user, cookie, secret: qr.body.code as string };
}

async function withTwoFactor() {
  const setup = await startSetup();
  const confirmed = await call('POST', `${TWO_FACTOR}/confirm`, {
    cookie: setup.cookie,
    body: { code: codeFor(setup.secret) },
  });
  expect(confirmed.status).toBe(200);
  return { ...setup, cookie: confirmed.cookie };
}

const failuresOf = (userId: number) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'auth.two_factor_failed'), eq(auditLog.actorId, userId)));

describe('confirming the setup', () => {
  it('gives the session a new token: the old cookie is refused, the new one works', async () => {
    const { user, cookie, secret } = await startSetup();
    const confirmed = await call('POST', `${TWO_FACTOR}/confirm`, {
      cookie,
      body: { code: codeFor(secret) },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.cookie).toBeDefined();
    expect(confirmed.cookie).not.toBe(cookie);

    expect((await call('POST', ME, { cookie })).status).toBe(401);
    const me = await call('POST', ME, { cookie: confirmed.cookie });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({
      email: user.email,
      two_factor_authentication_confirmed: true,
    });
  });

  it('keeps the token when the code is wrong', async () => {
    const { cookie, secret } = await startSetup();
    const wrong = await call('POST', `${TWO_FACTOR}/confirm`, {
      cookie,
      body: { code: wrongCodeFor(secret) },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.cookie).toBeUndefined();
    expect((await call('POST', ME, { cookie })).status).toBe(200);
  });

  it('checks at most the limit of parallel wrong codes', async () => {
    const { user, cookie, secret } = await startSetup();
    const code = wrongCodeFor(secret);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        call('POST', `${TWO_FACTOR}/confirm`, { cookie, body: { code } }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 422)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(12 - LIMIT);
    expect(await failuresOf(user.id)).toHaveLength(LIMIT);
  });
});

describe('the second step of signing in', () => {
  const challengeOf = async (email: string) => {
    const first = await call('POST', SIGN_IN, { body: { email, password: TEST_PASSWORD } });
    expect(first.body.code).toBe(102);
    return first.body.challenge as string;
  };

  it('is limited per account across challenges, with the message and Retry-After', async () => {
    const { user, secret } = await withTwoFactor();
    const challenge = await challengeOf(user.email);
    const wrong = wrongCodeFor(secret);
    // Each guess from its own address: only the per-account limit can stop them.
    for (let attempt = 0; attempt < LIMIT; attempt++) {
      const answer = await call('POST', SECOND_STEP, { body: { challenge, code: wrong } });
      expect(answer.status).toBe(422);
    }
    const refused = await call('POST', SECOND_STEP, { body: { challenge, code: wrong } });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 'too_many_requests',
      errors_info: ['errors.too_many_requests'],
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);

    // A new challenge (the password is known) does not open the step again, nor does the
    // right code: the whole step waits for the window.
    const fresh = await challengeOf(user.email);
    const right = await call('POST', SECOND_STEP, {
      body: { challenge: fresh, code: codeFor(secret, 1) },
    });
    expect(right.status).toBe(429);
    expect(right.cookie).toBeUndefined();
  });

  it('checks at most the limit of parallel wrong codes', async () => {
    const { user, secret } = await withTwoFactor();
    const challenge = await challengeOf(user.email);
    const code = wrongCodeFor(secret);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => call('POST', SECOND_STEP, { body: { challenge, code } })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 422)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(12 - LIMIT);
    expect(await failuresOf(user.id)).toHaveLength(LIMIT);
  });

  it('clears the count once a code is accepted', async () => {
    const { user, secret } = await withTwoFactor();
    const challenge = await challengeOf(user.email);
    for (let attempt = 0; attempt < LIMIT - 1; attempt++) {
      await call('POST', SECOND_STEP, { body: { challenge, code: wrongCodeFor(secret) } });
    }
    const right = await call('POST', SECOND_STEP, {
      body: { challenge, code: codeFor(secret, 1) },
    });
    expect(right.status).toBe(200);
    const next = await challengeOf(user.email);
    for (let attempt = 0; attempt < LIMIT; attempt++) {
      const answer = await call('POST', SECOND_STEP, {
        body: { challenge: next, code: wrongCodeFor(secret) },
      });
      expect(answer.status).toBe(422);
    }
  });
});
