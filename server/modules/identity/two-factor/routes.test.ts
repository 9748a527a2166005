import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { twoFactorRecoveryCodes, users } from '../../../db/schema/index.ts';
import { apiClient } from '../../../test/api-client.ts';
import { createTestApp } from '../../../test/test-app.ts';
import { createUser, signIn, TEST_PASSWORD } from '../../../test/test-users.ts';

const { app } = await createTestApp();
const db = app.db;
const call = apiClient(app);

const ACCOUNT = '/api/account/v1';
const TWO_FACTOR = `${ACCOUNT}/profile/two-factor-authentication`;
const PUBLIC = '/api/public/v1';

/** A code for the secret, `offset` time steps from now: what the user's phone shows. */
function codeFor(secret: string, offset = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + offset * 30_000 });
}

async function signedInUser() {
  const user = await createUser(db);
  return { user, cookie: await signIn(call, user.email) };
}

/** A user with two-factor on; answers the secret and the first recovery codes. */
async function withTwoFactor() {
  const { user, cookie } = await signedInUser();
  await call('POST', `${TWO_FACTOR}/enable`, { cookie });
  const qr = await call('GET', `${TWO_FACTOR}/get-qr`, { cookie });
  const secret = qr.body.code as string;
  const usedCode = codeFor(secret);
  const confirmed = await call('POST', `${TWO_FACTOR}/confirm`, {
    cookie,
    body: { code: usedCode },
  });
  return {
    user,
    // Confirming renewed the session's token.
    cookie: confirmed.cookie,
    secret,
    usedCode,
    recoveryCodes: confirmed.body.recovery_codes as string[],
  };
}

describe('setup', () => {
  it('moves off → enabled but unconfirmed → confirmed (§4)', async () => {
    const { user, cookie } = await signedInUser();
    const enabled = await call('POST', `${TWO_FACTOR}/enable`, { cookie });
    expect(enabled.body.user).toMatchObject({
      two_factor_authentication: true,
      two_factor_authentication_confirmed: false,
    });

    const qr = await call('GET', `${TWO_FACTOR}/get-qr`, { cookie });
    expect(qr.status).toBe(200);
    expect(qr.headers['cache-control']).toBe('no-store');
    expect(qr.body.code).toMatch(/^[A-Z2-7]{32}$/);
    expect(qr.body.svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row?.twoFactorSecret).not.toContain(qr.body.code as string);

    const confirmed = await call('POST', `${TWO_FACTOR}/confirm`, {
      cookie,
      body: { code: codeFor(qr.body.code as string) },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.user).toMatchObject({ two_factor_authentication_confirmed: true });
    expect(confirmed.body.recovery_codes).toHaveLength(10);
    const stored = await db
      .select()
      .from(twoFactorRecoveryCodes)
      .where(eq(twoFactorRecoveryCodes.userId, user.id));
    expect(stored.map((r) => r.codeHash)).not.toContain(
      (confirmed.body.recovery_codes as string[])[0],
    );

    const again = await call('GET', `${TWO_FACTOR}/get-qr`, { cookie: confirmed.cookie });
    expect(again.status).toBe(409);
  });

  it('answers a wrong code under the code field, and an incomplete one as required', async () => {
    const { cookie } = await signedInUser();
    await call('POST', `${TWO_FACTOR}/enable`, { cookie });
    const qr = await call('GET', `${TWO_FACTOR}/get-qr`, { cookie });
    const right = codeFor(qr.body.code as string);
    const wrong = right === '000000' ? '111111' : '000000';
    const answer = await call('POST', `${TWO_FACTOR}/confirm`, { cookie, body: { code: wrong } });
    expect(answer.status).toBe(422);
    expect(answer.body.errors_validation).toEqual({ code: ['errors.code_incorrect'] });
    const short = await call('POST', `${TWO_FACTOR}/confirm`, { cookie, body: { code: '123' } });
    expect(short.body.errors_validation).toEqual({ code: ['input_errors.code_is_invalid'] });
    const empty = await call('POST', `${TWO_FACTOR}/confirm`, { cookie, body: { code: '' } });
    expect(empty.body.errors_validation).toEqual({ code: ['input_errors.field_is_required'] });
  });

  it('needs a setup in progress for the QR', async () => {
    const { cookie } = await signedInUser();
    const answer = await call('GET', `${TWO_FACTOR}/get-qr`, { cookie });
    expect(answer.status).toBe(409);
    expect(answer.body.errors_info).toEqual(['errors.two_factor_not_enabled']);
  });
});

describe('sign-in with two-factor', () => {
  it('answers code 102, then signs in with a fresh code but never with a used one', async () => {
    const { user, secret, usedCode } = await withTwoFactor();
    const first = await call('POST', `${PUBLIC}/auth/sign-in`, {
      body: { email: user.email, password: TEST_PASSWORD },
    });
    expect(first.status).toBe(200);
    expect(first.body.code).toBe(102);
    expect(first.cookie).toBeUndefined();
    const challenge = first.body.challenge as string;

    // The code that confirmed the setup belongs to a step already used: a replay.
    const replay = await call('POST', `${PUBLIC}/auth/sign-in/two-factor`, {
      body: { challenge, code: usedCode },
    });
    expect(replay.status).toBe(422);
    expect(replay.body.errors_validation).toEqual({ code: ['errors.code_already_used'] });

    const next = codeFor(secret, 1);
    const signedIn = await call('POST', `${PUBLIC}/auth/sign-in/two-factor`, {
      body: { challenge, code: next },
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ email: user.email });
    expect(signedIn.cookie).toBeDefined();

    const reused = await call('POST', `${PUBLIC}/auth/sign-in/two-factor`, {
      body: { challenge, code: next },
    });
    expect(reused.status).toBe(400);
    expect(reused.body.errors_info).toEqual(['errors.sign_in_expired']);
  });

  it('takes a recovery code once', async () => {
    const { user, recoveryCodes } = await withTwoFactor();
    const start = () =>
      call('POST', `${PUBLIC}/auth/sign-in`, {
        body: { email: user.email, password: TEST_PASSWORD },
      });
    const code = (recoveryCodes[0] ?? '').toUpperCase();
    const first = await call('POST', `${PUBLIC}/auth/sign-in/two-factor`, {
      body: { challenge: (await start()).body.challenge, code },
    });
    expect(first.status).toBe(200);
    const second = await call('POST', `${PUBLIC}/auth/sign-in/two-factor`, {
      body: { challenge: (await start()).body.challenge, code },
    });
    expect(second.status).toBe(422);
    expect(second.body.errors_validation).toEqual({ code: ['errors.code_incorrect'] });
  });

  it('refuses a made-up challenge', async () => {
    const answer = await call('POST', `${PUBLIC}/auth/sign-in/two-factor`, {
      body: { challenge: 'eyJlbWFpbCI6ImFAYi5jbyIsInRva2VuIjoieCJ9', code: '123456' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors_info).toEqual(['errors.sign_in_expired']);
  });

  it('limits wrong codes per account', async () => {
    const { user } = await withTwoFactor();
    const start = await call('POST', `${PUBLIC}/auth/sign-in`, {
      body: { email: user.email, password: TEST_PASSWORD },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const answer = await call('POST', `${PUBLIC}/auth/sign-in/two-factor`, {
        body: { challenge: start.body.challenge, code: 'aaaaa-bbbbb' },
      });
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, 5)).toEqual([422, 422, 422, 422, 422]);
    expect(statuses[5]).toBe(429);
  });
});

describe('recovery codes and disabling', () => {
  it('downloads a new set as 2fa_recovery_codes.txt after the password; the old set dies', async () => {
    const { cookie, recoveryCodes } = await withTwoFactor();
    const wrong = await call('POST', `${TWO_FACTOR}/get-recovery-codes`, {
      cookie,
      body: { password: 'Wr0ng#password' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors_validation).toEqual({ password: ['errors.password_incorrect'] });

    const file = await call('POST', `${TWO_FACTOR}/get-recovery-codes`, {
      cookie,
      body: { password: TEST_PASSWORD },
    });
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toContain('text/plain');
    expect(file.headers['content-disposition']).toBe(
      'attachment; filename="2fa_recovery_codes.txt"',
    );
    const codes = file.text.split('\n').filter((line) => /^[a-z2-9]{5}-[a-z2-9]{5}$/.test(line));
    expect(codes).toHaveLength(10);
    expect(codes).not.toContain(recoveryCodes[0]);
  });

  it('turns off with the password and forgets the secret', async () => {
    const { user, cookie } = await withTwoFactor();
    const empty = await call('POST', `${TWO_FACTOR}/disable`, { cookie, body: { password: '' } });
    expect(empty.body.errors_validation).toEqual({ password: ['input_errors.field_is_required'] });
    const off = await call('POST', `${TWO_FACTOR}/disable`, {
      cookie,
      body: { password: TEST_PASSWORD },
    });
    expect(off.status).toBe(200);
    expect(off.body.user).toMatchObject({
      two_factor_authentication: false,
      two_factor_authentication_confirmed: false,
    });
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row?.twoFactorSecret).toBeNull();
    const signInAgain = await call('POST', `${PUBLIC}/auth/sign-in`, {
      body: { email: user.email, password: TEST_PASSWORD },
    });
    expect(signInAgain.body.user).toBeDefined();
  });
});
