import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeChallenge } from '#shared/challenge.ts';
import { auditLog, sessions, users } from '../../db/schema/index.ts';
import { type ApiAnswer, apiClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { startTestSmtp } from '../../test/test-smtp.ts';
import { issueToken } from './one-time-tokens.ts';
import { hashPassword } from './password.ts';

const smtp = await startTestSmtp();
afterAll(() => smtp.close());

const { app } = await createTestApp({ SMTP_URL: smtp.url, APP_URL: 'http://localhost:3000' });
const db = app.db;

const PUBLIC = '/api/public/v1';
const ALL = '/api/all/v1';
const PASSWORD = 'Str0ng#passw0rd';
let counter = 0;
const freshEmail = () => `user${++counter}-${Date.now()}@example.com`;

const call = apiClient(app);

async function signUp(email = freshEmail(), extra: Record<string, unknown> = {}) {
  const result = await call('POST', `${PUBLIC}/auth/sign-up`, {
    body: { email, password: PASSWORD, password_confirmation: PASSWORD, ...extra },
  });
  return { ...result, email };
}

/** The challenge of the newest link e-mailed to `to`, read from the real SMTP server. */
async function challengeFrom(to: string): Promise<string> {
  const message = await smtp.waitForMessage(to);
  const link = message.text.match(/https?:\/\/\S+challenge=([\w-]+)/);
  if (!link?.[1]) throw new Error(`no link in message to ${to}: ${message.text}`);
  return link[1];
}

beforeEach(() => smtp.clear());

describe('sign-up', () => {
  it('creates an unverified account, signs it in and e-mails a verification link', async () => {
    const { status, body, cookie, email } = await signUp(undefined, { name: 'Nina', locale: 'fr' });
    expect(status).toBe(201);
    expect(body.user).toMatchObject({ email, name: 'Nina', activated: false, role: 'USER' });

    const message = await smtp.waitForMessage(email);
    expect(message.subject).toMatch(/adresse|e-mail/i);
    const challenge = decodeChallenge(await challengeFrom(email));
    expect(challenge?.email).toBe(email);

    const me = await call('POST', '/api/account/v1/users/get-auth-user', { cookie });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email });
  });

  it('sets the session cookie httpOnly and SameSite=Lax, storing only its hash', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `${PUBLIC}/auth/sign-up`,
      headers: { 'x-requested-with': 'fetch' },
      payload: { email: freshEmail(), password: PASSWORD, password_confirmation: PASSWORD },
    });
    const sid = response.cookies.find((c) => c.name === 'sid');
    expect(sid).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const hash = createHash('sha256')
      .update(sid?.value ?? '')
      .digest('hex');
    const stored = await db.select().from(sessions).where(eq(sessions.tokenHash, hash));
    expect(stored).toHaveLength(1);
    const raw = await db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sid?.value ?? ''));
    expect(raw).toHaveLength(0);
  });

  it.each([
    [
      { password: PASSWORD, password_confirmation: PASSWORD },
      'email',
      'input_errors.field_is_required',
    ],
    [
      { email: 'not-an-email', password: PASSWORD, password_confirmation: PASSWORD },
      'email',
      'input_errors.email_is_incorrect',
    ],
    [
      { email: 'a@example.com', password: 'short1!', password_confirmation: 'short1!' },
      'password',
      'input_errors.password_error_length',
    ],
    [
      { email: 'a@example.com', password: 'longpassword!', password_confirmation: 'longpassword!' },
      'password',
      'input_errors.password_error_numbers',
    ],
    [
      { email: 'a@example.com', password: PASSWORD, password_confirmation: `${PASSWORD}x` },
      'password_confirmation',
      'input_errors.passwords_dont_match',
    ],
  ])('rejects %j on %s', async (body, field, message) => {
    const { status, body: answer } = await call('POST', `${PUBLIC}/auth/sign-up`, { body });
    expect(status).toBe(422);
    expect((answer.errors_validation as Record<string, string[]>)[field]).toContain(message);
  });

  it('refuses an address that already has an account, whatever its case', async () => {
    const { email } = await signUp();
    const again = await signUp(email.toUpperCase());
    expect(again.status).toBe(422);
    expect(again.body.errors_validation).toEqual({ email: ['input_errors.email_taken'] });
  });
});

describe('the audit log', () => {
  it('records sign-out, verification and reset with the actor as subject', async () => {
    const { email, cookie } = await signUp();
    const verified = await call('POST', `${ALL}/auth/email/verify`, {
      body: { challenge: await challengeFrom(email) },
      cookie,
    });
    await call('POST', `${ALL}/auth/sign-out`, { cookie: verified.cookie });
    smtp.clear();
    await call('POST', `${PUBLIC}/auth/password/forgot`, { body: { email } });
    const reset = await call('POST', `${PUBLIC}/auth/password/reset`, {
      body: {
        challenge: await challengeFrom(email),
        password: 'An0ther#password',
        password_confirmation: 'An0ther#password',
      },
    });
    expect(reset.status).toBe(200);
    const [user] = await db.select().from(users).where(eq(users.email, email));
    const rows = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.actorId, user?.id ?? 0));
    expect(rows.map((row) => row.action)).toEqual(
      expect.arrayContaining([
        'auth.signed_up',
        'auth.email_verified',
        'auth.signed_out',
        'auth.password_reset_requested',
        'auth.password_reset',
      ]),
    );
    expect(rows.every((row) => row.subjectId === String(user?.id))).toBe(true);
    expect(rows.every((row) => row.ip && row.userAgent === 'vitest-agent' && row.createdAt)).toBe(
      true,
    );
  });
});

describe('CSRF', () => {
  it('refuses a state-changing call without the request header', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `${PUBLIC}/auth/sign-in`,
      payload: { email: 'a@example.com', password: PASSWORD },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ code: 'forbidden', errors_info: ['errors.csrf'] });
  });

  it('refuses a call from another origin', async () => {
    const { status, body } = await call('POST', `${PUBLIC}/auth/sign-in`, {
      body: { email: 'a@example.com', password: PASSWORD },
      headers: { origin: 'https://evil.example', host: 'localhost:3000' },
    });
    expect(status).toBe(403);
    expect(body.errors_info).toEqual(['errors.csrf']);
  });
});

describe('CSRF and sessions whatever the path encoding', () => {
  // The router decodes the path: these reach the same routes as /api/….
  const spellings = ['/%61pi', '/%61%70%69', '/ap%69'];

  it.each(spellings)('refuses %s/… without the request header', async (base) => {
    const response = await app.inject({
      method: 'POST',
      url: `${base}/public/v1/auth/sign-in`,
      payload: { email: 'a@example.com', password: PASSWORD },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ code: 'forbidden', errors_info: ['errors.csrf'] });
    const signOut = await app.inject({ method: 'POST', url: `${base}/all/v1/auth/sign-out` });
    expect(signOut.statusCode).toBe(403);
  });

  it.each(spellings)('resolves the session on %s/…', async (base) => {
    const { cookie, email } = await signUp();
    const me = await call('POST', `${base}/account/v1/users/get-auth-user`, { cookie });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email });
  });
});

describe('sign-in and sign-out', () => {
  it('signs in with the right password and records it in the audit log', async () => {
    const { email } = await signUp();
    const { status, body } = await call('POST', `${PUBLIC}/auth/sign-in`, {
      body: { email: ` ${email.toUpperCase()} `, password: PASSWORD },
      ip: '192.0.2.10',
    });
    expect(status).toBe(200);
    expect(body.user).toMatchObject({ email });
    const [user] = await db.select().from(users).where(eq(users.email, email));
    const rows = await db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.actorId} = ${user?.id} and ${auditLog.action} = 'auth.signed_in'`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userAgent: 'vitest-agent', ip: '192.0.2.10' });
  });

  it('answers an unknown e-mail and a wrong password the same way', async () => {
    const { email } = await signUp();
    const wrong = await call('POST', `${PUBLIC}/auth/sign-in`, {
      body: { email, password: 'Wr0ng#password' },
    });
    const unknown = await call('POST', `${PUBLIC}/auth/sign-in`, {
      body: { email: freshEmail(), password: 'Wr0ng#password' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toEqual({
      code: 'unauthenticated',
      errors_info: ['errors.invalid_credentials'],
    });
    const failures = await db
      .select()
      .from(auditLog)
      .where(
        sql`${auditLog.action} = 'auth.sign_in_failed' and ${auditLog.data}->>'email' = ${email}`,
      );
    expect(failures).toHaveLength(1);
  });

  it('replaces the session of a browser that signs in again', async () => {
    const { email, cookie: first } = await signUp();
    const second = await call('POST', `${PUBLIC}/auth/sign-in`, {
      body: { email, password: PASSWORD },
      cookie: first,
    });
    expect(second.cookie).toBeDefined();
    expect(second.cookie).not.toBe(first);
    const old = await call('POST', '/api/account/v1/users/get-auth-user', { cookie: first });
    expect(old.status).toBe(401);
  });

  it('signs out: the cookie is cleared and the session no longer works', async () => {
    const { cookie } = await signUp();
    const out = await call('POST', `${ALL}/auth/sign-out`, { cookie });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    const after = await call('POST', '/api/account/v1/users/get-auth-user', { cookie });
    expect(after.status).toBe(401);
  });

  it('signs out a browser without a session as a no-op', async () => {
    const out = await call('POST', `${ALL}/auth/sign-out`);
    expect(out).toMatchObject({ status: 200, body: { success: true }, clearedCookie: true });
    const stale = await call('POST', `${ALL}/auth/sign-out`, { cookie: 'sid=not-a-session' });
    expect(stale).toMatchObject({ status: 200, clearedCookie: true });
  });

  it('refuses a sign-out without the request header, keeping the session', async () => {
    const { cookie } = await signUp();
    const forged = await app.inject({
      method: 'POST',
      url: `${ALL}/auth/sign-out`,
      headers: { cookie: cookie ?? '' },
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toEqual({ code: 'forbidden', errors_info: ['errors.csrf'] });
    expect(forged.cookies).toEqual([]);
    expect((await call('POST', '/api/account/v1/users/get-auth-user', { cookie })).status).toBe(
      200,
    );
  });

  it('ends a session that was idle too long', async () => {
    const { cookie } = await signUp();
    const token = cookie?.split('=')[1] ?? '';
    const hash = createHash('sha256').update(token).digest('hex');
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 15 * 86_400_000) })
      .where(eq(sessions.tokenHash, hash));
    const me = await call('POST', '/api/account/v1/users/get-auth-user', { cookie });
    expect(me.status).toBe(401);
    expect(await db.select().from(sessions).where(eq(sessions.tokenHash, hash))).toHaveLength(0);
  });

  it('ends every session of a user whose role changed: privileges need a fresh sign-in', async () => {
    const { email, cookie } = await signUp();
    await db.update(users).set({ role: 'AUTHOR' }).where(eq(users.email, email));
    const stale = await call('POST', '/api/account/v1/users/get-auth-user', { cookie });
    expect(stale.status).toBe(401);
    const [user] = await db.select().from(users).where(eq(users.email, email));
    expect(
      await db
        .select()
        .from(sessions)
        .where(eq(sessions.userId, user?.id ?? 0)),
    ).toEqual([]);
    const again = await call('POST', `${PUBLIC}/auth/sign-in`, {
      body: { email, password: PASSWORD },
    });
    const staff = await call('POST', '/api/dashboard/v1/users/get-auth-user', {
      cookie: again.cookie,
    });
    expect(staff.status).toBe(200);
  });

  it('keeps a blocked account out', async () => {
    const { email, cookie } = await signUp();
    await db.update(users).set({ blockedAt: new Date() }).where(eq(users.email, email));
    expect((await call('POST', '/api/account/v1/users/get-auth-user', { cookie })).status).toBe(
      401,
    );
    const again = await call('POST', `${PUBLIC}/auth/sign-in`, {
      body: { email, password: PASSWORD },
    });
    expect(again.status).toBe(403);
    expect(again.body.errors_info).toEqual(['errors.account_blocked']);
  });

  it.each([
    [{ password: PASSWORD }, 'email', 'input_errors.field_is_required'],
    [{ email: '', password: PASSWORD }, 'email', 'input_errors.field_is_required'],
    [{ email: 'not-an-email', password: PASSWORD }, 'email', 'input_errors.email_is_incorrect'],
    [{ email: 'a@example.com' }, 'password', 'input_errors.field_is_required'],
    [{ email: 'a@example.com', password: '' }, 'password', 'input_errors.field_is_required'],
    [{ email: 'a@example.com', password: '   ' }, 'password', 'input_errors.field_is_required'],
    [
      { email: `${'a'.repeat(250)}@example.com`, password: PASSWORD },
      'email',
      'input_errors.field_is_too_long',
    ],
    [
      { email: 'a@example.com', password: `${PASSWORD}${'x'.repeat(300)}` },
      'password',
      'input_errors.field_is_too_long',
    ],
  ])('answers 422 to %j on %s', async (body, field, message) => {
    const answer = await call('POST', `${PUBLIC}/auth/sign-in`, { body });
    expect(answer.status).toBe(422);
    expect(answer.body.code).toBe('validation_failed');
    expect((answer.body.errors_validation as Record<string, string[]>)[field]).toEqual([message]);
  });

  it('answers 422 to a body that is not an object, and 413 to one over the size limit', async () => {
    const list = await call('POST', `${PUBLIC}/auth/sign-in`, { body: ['a@example.com'] });
    expect(list.status).toBe(422);
    const huge = await call('POST', `${PUBLIC}/auth/sign-in`, {
      body: { email: 'a@example.com', password: 'x'.repeat(1_100_000) },
    });
    expect(huge.status).toBe(413);
  });

  it('limits sign-in attempts per client address, whatever the account', async () => {
    const ip = '198.51.100.30';
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const answer = await call('POST', `${PUBLIC}/auth/sign-in`, {
        body: { email: freshEmail(), password: 'Wr0ng#password' },
        ip,
      });
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
    // The address is held back even with the right password of a real account.
    const { email } = await signUp();
    const owner = await call('POST', `${PUBLIC}/auth/sign-in`, {
      body: { email, password: PASSWORD },
      ip,
    });
    expect(owner.status).toBe(429);
    expect(owner.body.errors_info).toEqual(['errors.too_many_requests']);
    expect(Number(owner.headers['retry-after'])).toBeGreaterThan(800);
  });

  it('limits sign-in attempts per account with 429 and Retry-After', async () => {
    const { email } = await signUp();
    let last: ApiAnswer | undefined;
    for (let attempt = 0; attempt < 10; attempt++) {
      last = await call('POST', `${PUBLIC}/auth/sign-in`, {
        body: { email, password: 'Wr0ng#password' },
      });
      if (last.status === 429) break;
    }
    expect(last?.status).toBe(429);
    expect(last?.body).toEqual({
      code: 'too_many_requests',
      errors_info: ['errors.too_many_requests'],
    });
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('get-auth-user per base and role', () => {
  it('needs a session on the account base', async () => {
    const response = await call('POST', '/api/account/v1/users/get-auth-user');
    expect(response.status).toBe(401);
  });

  it('is for staff only on the dashboard base', async () => {
    const { cookie, email } = await signUp();
    expect((await call('POST', '/api/dashboard/v1/users/get-auth-user', { cookie })).status).toBe(
      403,
    );
    for (const role of ['AUTHOR', 'ADMIN'] as const) {
      await db.update(users).set({ role }).where(eq(users.email, email));
      const again = await call('POST', `${PUBLIC}/auth/sign-in`, {
        body: { email, password: PASSWORD },
      });
      const staff = await call('POST', '/api/dashboard/v1/users/get-auth-user', {
        cookie: again.cookie,
      });
      expect(staff.status).toBe(200);
      expect(staff.body.user).toMatchObject({ role });
    }
  });

  it('answers an ADMIN on the dashboard base with the staff member', async () => {
    const email = freshEmail();
    await db.insert(users).values({
      email,
      username: `admin${counter}`,
      role: 'ADMIN',
      name: 'Ada Admin',
      passwordHash: await hashPassword(PASSWORD),
      emailVerifiedAt: new Date(),
    });
    const { cookie } = await call('POST', `${PUBLIC}/auth/sign-in`, {
      body: { email, password: PASSWORD },
    });
    const staff = await call('POST', '/api/dashboard/v1/users/get-auth-user', { cookie });
    expect(staff.status).toBe(200);
    expect(staff.body.user).toMatchObject({
      email,
      name: 'Ada Admin',
      role: 'ADMIN',
      activated: true,
    });
    expect(staff.body.user).not.toHaveProperty('password_hash');
    expect(JSON.stringify(staff.body)).not.toMatch(/argon2|two_factor_secret/);
    // Staff are not customers of the account base's billing, but get-auth-user answers there.
    expect((await call('POST', '/api/account/v1/users/get-auth-user', { cookie })).status).toBe(
      200,
    );
    expect((await call('POST', '/api/dashboard/v1/users/get-auth-user')).status).toBe(401);
  });

  it('answers the current subscription: none for a new account', async () => {
    const { cookie } = await signUp();
    const response = await call('GET', '/api/account/v1/subscriptions/current', { cookie });
    expect(response.body).toEqual({ subscription: null, last_invoice_finalizing: false });
    expect((await call('GET', '/api/account/v1/subscriptions/current')).status).toBe(401);
  });
});

describe('e-mail verification', () => {
  it('verifies with the e-mailed link, once', async () => {
    const { email, cookie } = await signUp();
    const challenge = await challengeFrom(email);
    const verified = await call('POST', `${ALL}/auth/email/verify`, {
      body: { challenge },
      cookie,
    });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ activated: true });
    // The standing changed: the session has a new token and the old one is dead.
    expect(verified.cookie).toBeDefined();
    expect(verified.cookie).not.toBe(cookie);
    expect((await call('POST', '/api/account/v1/users/get-auth-user', { cookie })).status).toBe(
      401,
    );
    const me = await call('POST', '/api/account/v1/users/get-auth-user', {
      cookie: verified.cookie,
    });
    expect(me.body.user).toMatchObject({ email, activated: true });

    const other = await signUp();
    const reused = await call('POST', `${ALL}/auth/email/verify`, {
      body: { challenge },
      cookie: other.cookie,
    });
    expect(reused.status).toBe(400);
    expect(reused.body.errors_info).toEqual(['errors.link_invalid']);
  });

  it('refuses a tampered or foreign link and needs a session', async () => {
    const { email, cookie } = await signUp();
    const challenge = await challengeFrom(email);
    const value = decodeChallenge(challenge);
    const tampered = Buffer.from(
      JSON.stringify({ email, token: `${value?.token?.slice(0, -2)}xx` }),
    ).toString('base64url');
    const bad = await call('POST', `${ALL}/auth/email/verify`, {
      body: { challenge: tampered },
      cookie,
    });
    expect(bad.status).toBe(400);
    const other = await signUp();
    const foreign = await call('POST', `${ALL}/auth/email/verify`, {
      body: { challenge },
      cookie: other.cookie,
    });
    expect(foreign.status).toBe(403);
    const anonymous = await call('POST', `${ALL}/auth/email/verify`, { body: { challenge } });
    expect(anonymous.status).toBe(401);
    // Opened in the wrong account first, the link still works in the right one.
    const own = await call('POST', `${ALL}/auth/email/verify`, { body: { challenge }, cookie });
    expect(own.status).toBe(200);
  });

  it('resends a new link that replaces the old one', async () => {
    const { email, cookie } = await signUp();
    const first = await challengeFrom(email);
    smtp.clear();
    const resent = await call('POST', `${ALL}/auth/email/resend`, { body: {}, cookie });
    expect(resent.status).toBe(200);
    const second = await challengeFrom(email);
    expect(second).not.toBe(first);
    const old = await call('POST', `${ALL}/auth/email/verify`, {
      body: { challenge: first },
      cookie,
    });
    expect(old.status).toBe(400);
    const fresh = await call('POST', `${ALL}/auth/email/verify`, {
      body: { challenge: second },
      cookie,
    });
    expect(fresh.status).toBe(200);
    const again = await call('POST', `${ALL}/auth/email/resend`, {
      body: {},
      cookie: fresh.cookie,
    });
    expect(again.body.errors_info).toEqual(['errors.already_verified']);
  });

  it('resends only to a signed-in user', async () => {
    const anonymous = await call('POST', `${ALL}/auth/email/resend`, { body: {} });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('unauthenticated');
    expect(smtp.messages).toHaveLength(0);
  });

  it('limits resends per account with 429, from any address', async () => {
    const { email, cookie } = await signUp();
    smtp.clear();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await call('POST', `${ALL}/auth/email/resend`, { body: {}, cookie })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await call('POST', `${ALL}/auth/email/resend`, { body: {}, cookie });
    expect(refused.body.errors_info).toEqual(['errors.too_many_requests']);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3_000);
    expect(smtp.messages.filter((mail) => mail.envelope.to.includes(email))).toHaveLength(5);
  });

  it('limits verification attempts per account and per client address with 429', async () => {
    const { cookie } = await signUp();
    const bad = Buffer.from(JSON.stringify({ email: 'x@example.com', token: 'y' })).toString(
      'base64url',
    );
    const perAccount: number[] = [];
    for (let i = 0; i < 6; i++) {
      const answer = await call('POST', `${ALL}/auth/email/verify`, {
        body: { challenge: bad },
        cookie,
      });
      perAccount.push(answer.status);
    }
    expect(perAccount).toEqual([400, 400, 400, 400, 400, 429]);

    const ip = '198.51.100.50';
    const perIp: number[] = [];
    for (let i = 0; i < 21; i++) {
      const other = await signUp();
      const answer = await call('POST', `${ALL}/auth/email/verify`, {
        body: { challenge: bad },
        cookie: other.cookie,
        ip,
      });
      perIp.push(answer.status);
    }
    expect(perIp).toEqual([...Array(20).fill(400), 429]);
  });

  it('refuses an expired link', async () => {
    const { email, cookie } = await signUp();
    const challenge = await challengeFrom(email);
    await db.execute(sql`update one_time_tokens set expires_at = now() - interval '1 minute'`);
    const response = await call('POST', `${ALL}/auth/email/verify`, {
      body: { challenge },
      cookie,
    });
    expect(response.status).toBe(400);
  });
});

describe('password forgot and reset', () => {
  it('answers the same for an unknown address and sends nothing', async () => {
    const unknown = await call('POST', `${PUBLIC}/auth/password/forgot`, {
      body: { email: freshEmail() },
    });
    expect(unknown).toMatchObject({ status: 200, body: { success: true } });
    expect(smtp.messages).toHaveLength(0);
  });

  it.each([
    [{}, 'input_errors.field_is_required'],
    [{ email: '  ' }, 'input_errors.field_is_required'],
    [{ email: 'nobody-at-example.com' }, 'input_errors.email_is_incorrect'],
    [{ email: `${'b'.repeat(250)}@example.com` }, 'input_errors.field_is_too_long'],
  ])('answers 422 to a reset request %j', async (body, message) => {
    const answer = await call('POST', `${PUBLIC}/auth/password/forgot`, { body });
    expect(answer.status).toBe(422);
    expect(answer.body.errors_validation).toEqual({ email: [message] });
    expect(smtp.messages).toHaveLength(0);
  });

  it('limits reset requests per client address, whatever the addresses', async () => {
    const ip = '198.51.100.40';
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const answer = await call('POST', `${PUBLIC}/auth/password/forgot`, {
        body: { email: freshEmail() },
        ip,
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    const { email } = await signUp();
    smtp.clear();
    const refused = await call('POST', `${PUBLIC}/auth/password/forgot`, { body: { email }, ip });
    expect(refused.status).toBe(429);
    expect(refused.body.errors_info).toEqual(['errors.too_many_requests']);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3_000);
    expect(smtp.messages).toHaveLength(0);
  });

  it('limits reset requests per address with 429, whatever the address', async () => {
    const email = freshEmail();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await call('POST', `${PUBLIC}/auth/password/forgot`, { body: { email } })).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('limits sign-ups per address of the client with 429', async () => {
    let last = 0;
    for (let i = 0; i < 11; i++) {
      last = (
        await call('POST', `${PUBLIC}/auth/sign-up`, {
          body: { email: freshEmail(), password: PASSWORD, password_confirmation: PASSWORD },
          ip: '203.0.113.77',
        })
      ).status;
    }
    expect(last).toBe(429);
  });

  it('limits sign-ups per address being registered, from any client', async () => {
    const email = freshEmail();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await signUp(email.toUpperCase())).status);
    expect(statuses).toEqual([201, 422, 422, 422, 422, 429, 429]);
    const refused = await signUp(email);
    expect(refused.body).toEqual({
      code: 'too_many_requests',
      errors_info: ['errors.too_many_requests'],
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3_000);
  });

  it('resets with the e-mailed link, ends every session and verifies the address', async () => {
    const { email, cookie } = await signUp();
    smtp.clear();
    await call('POST', `${PUBLIC}/auth/password/forgot`, { body: { email, locale: 'nl' } });
    const challenge = await challengeFrom(email);
    const next = 'N3w#password!';
    const reset = await call('POST', `${PUBLIC}/auth/password/reset`, {
      body: { challenge, password: next, password_confirmation: next },
    });
    expect(reset).toMatchObject({ status: 200, body: { success: true } });

    expect((await call('POST', '/api/account/v1/users/get-auth-user', { cookie })).status).toBe(
      401,
    );
    const oldPassword = await call('POST', `${PUBLIC}/auth/sign-in`, {
      body: { email, password: PASSWORD },
    });
    expect(oldPassword.status).toBe(401);
    const signedIn = await call('POST', `${PUBLIC}/auth/sign-in`, {
      body: { email, password: next },
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ activated: true });

    const reused = await call('POST', `${PUBLIC}/auth/password/reset`, {
      body: { challenge, password: next, password_confirmation: next },
    });
    expect(reused.body.errors_info).toEqual(['errors.link_invalid']);
  });

  it('validates the new password with the shared rules', async () => {
    const response = await call('POST', `${PUBLIC}/auth/password/reset`, {
      body: { challenge: 'x', password: 'abc', password_confirmation: 'abd' },
    });
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors_validation as object).sort()).toEqual([
      'password',
      'password_confirmation',
    ]);
  });
});

describe('password set', () => {
  it('sets a password for an account made without one, with its link', async () => {
    const email = freshEmail();
    const [user] = await db
      .insert(users)
      .values({ email, username: `set${counter}`, emailVerifiedAt: new Date() })
      .returning();
    if (!user) throw new Error('no user');
    // A session for this user: sign-in is impossible without a password, so make one here.
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(PASSWORD) })
      .where(eq(users.id, user.id));
    const { cookie } = await call('POST', `${PUBLIC}/auth/sign-in`, {
      body: { email, password: PASSWORD },
    });
    const token = await issueToken(db, 'password_set', user.id, email);
    const challenge = Buffer.from(JSON.stringify({ token })).toString('base64url');
    const next = 'S3t#password!';
    const response = await call('POST', `${ALL}/auth/password/set`, {
      body: {
        challenge: Buffer.from(JSON.stringify({ email, token })).toString('base64url'),
        password: next,
        password_confirmation: next,
      },
      cookie,
    });
    expect(response.status).toBe(200);
    // The session was rotated: the old cookie is dead, the new one works.
    expect(response.cookie).toBeDefined();
    expect(response.cookie).not.toBe(cookie);
    expect((await call('POST', '/api/account/v1/users/get-auth-user', { cookie })).status).toBe(
      401,
    );
    const rotated = response.cookie;
    expect(
      (await call('POST', '/api/account/v1/users/get-auth-user', { cookie: rotated })).status,
    ).toBe(200);
    const withoutEmail = await call('POST', `${ALL}/auth/password/set`, {
      body: { challenge, password: next, password_confirmation: next },
      cookie: rotated,
    });
    expect(withoutEmail.status).toBe(400);
    const signIn = await call('POST', `${PUBLIC}/auth/sign-in`, {
      body: { email, password: next },
    });
    expect(signIn.status).toBe(200);
  });
});
