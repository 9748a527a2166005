import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeChallenge } from '#shared/challenge.ts';
import { auditLog, mailOutbox, oneTimeTokens, sessions, users } from '../../db/schema/index.ts';
import { apiClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { startTestSmtp } from '../../test/test-smtp.ts';
import { createUser, signIn, TEST_PASSWORD } from '../../test/test-users.ts';

const smtp = await startTestSmtp();
afterAll(() => smtp.close());
const { app } = await createTestApp({ SMTP_URL: smtp.url, APP_URL: 'http://localhost:3000' });
const db = app.db;
const call = apiClient(app);

const ACCOUNT = '/api/account/v1';
const DASHBOARD = '/api/dashboard/v1';
const NEW_PASSWORD = 'N3w#password!';

beforeEach(() => smtp.clear());

async function signedInUser(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(db, overrides);
  return { user, cookie: await signIn(call, user.email) };
}

/** The challenge of the newest link mailed to `to`. */
async function mailedChallenge(to: string): Promise<string> {
  const mail = await smtp.waitForMessage(to);
  const link = mail.links.find((href) => href.includes('challenge=')) ?? '';
  return new URL(link).searchParams.get('challenge') ?? '';
}

async function auditRows(userId: number, action: string) {
  return db
    .select()
    .from(auditLog)
    .where(sql`${auditLog.actorId} = ${userId} and ${auditLog.action} = ${action}`)
    .orderBy(auditLog.id);
}

async function auditActions(userId: number): Promise<string[]> {
  const rows = await db
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(eq(auditLog.actorId, userId));
  return rows.map((row) => row.action);
}

function photoForm(data: Buffer, name = 'me.png', type = 'image/png'): FormData {
  const form = new FormData();
  form.append('photo', new Blob([new Uint8Array(data)], { type }), name);
  return form;
}

const png = (width = 600, height = 400) =>
  sharp({ create: { width, height, channels: 3, background: '#3355ff' } })
    .png()
    .toBuffer();

describe('profile', () => {
  it('updates name and username, keeping the e-mail', async () => {
    const { user, cookie } = await signedInUser();
    const { status, body } = await call('POST', `${ACCOUNT}/profile/update`, {
      cookie,
      body: { name: '  Ann Lee ', username: 'ann.lee', email: user.email },
    });
    expect(status).toBe(200);
    expect(body.user).toMatchObject({ name: 'Ann Lee', username: 'ann.lee', email: user.email });
    expect(await auditActions(user.id)).toContain('account.profile_updated');
  });

  it.each([
    [{ username: '', email: 'a@example.com' }, 'username', 'input_errors.field_is_required'],
    [
      { username: 'bad name!', email: 'a@example.com' },
      'username',
      'input_errors.username_is_invalid',
    ],
    [{ username: 'fine', email: '' }, 'email', 'input_errors.field_is_required'],
    [{ username: 'fine', email: 'nope' }, 'email', 'input_errors.email_is_incorrect'],
    [
      { username: 'x'.repeat(65), email: 'a@example.com' },
      'username',
      'input_errors.field_is_too_long',
    ],
  ])('refuses %j on %s', async (body, field, message) => {
    const { cookie } = await signedInUser();
    const answer = await call('POST', `${ACCOUNT}/profile/update`, { cookie, body });
    expect(answer.status).toBe(422);
    expect((answer.body.errors_validation as Record<string, string[]>)[field]?.[0]).toBe(message);
  });

  it('refuses a username another user has, whatever its case', async () => {
    const other = await createUser(db, { username: 'TakenName' });
    const { user, cookie } = await signedInUser();
    const answer = await call('POST', `${ACCOUNT}/profile/update`, {
      cookie,
      body: { username: other.username.toLowerCase(), email: user.email },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors_validation).toEqual({ username: ['input_errors.username_taken'] });
  });

  it('answers 401 to a visitor and 403 to a customer on the dashboard base', async () => {
    const visitor = await call('POST', `${ACCOUNT}/profile/update`, {
      body: { username: 'x', email: 'x@example.com' },
    });
    expect(visitor.status).toBe(401);
    const { user, cookie } = await signedInUser();
    const customer = await call('POST', `${DASHBOARD}/profile/update`, {
      cookie,
      body: { username: 'x', email: user.email },
    });
    expect(customer.status).toBe(403);
  });

  it('serves staff on the dashboard base (/admin/account)', async () => {
    const { user, cookie } = await signedInUser({ role: 'ADMIN' });
    const { status, body } = await call('POST', `${DASHBOARD}/profile/update`, {
      cookie,
      body: { name: 'Admin', username: user.username, email: user.email },
    });
    expect(status).toBe(200);
    expect(body.user).toMatchObject({ name: 'Admin', role: 'ADMIN' });
  });
});

describe('e-mail change', () => {
  it('holds the new address in email_tmp until the link mailed to it is followed', async () => {
    const { user, cookie } = await signedInUser();
    const next = `next-${user.id}@example.com`;
    const update = await call('POST', `${ACCOUNT}/profile/update`, {
      cookie,
      body: { username: user.username, email: next.toUpperCase(), locale: 'es' },
    });
    expect(update.status).toBe(200);
    expect(update.body.user).toMatchObject({ email: user.email, email_tmp: next });

    const mail = await smtp.waitForMessage(next);
    const link = mail.links.find((href) => href.includes('challenge='));
    expect(link).toMatch(
      /^http:\/\/localhost:3000\/es\/account\/email\/change\/verify\?challenge=/,
    );
    const challenge = new URL(link ?? '').searchParams.get('challenge') ?? '';
    expect(decodeChallenge(challenge)?.email).toBe(next);

    const confirm = await call('POST', `${ACCOUNT}/profile/email-change/confirm`, {
      cookie,
      body: { challenge },
    });
    expect(confirm.status).toBe(200);
    expect(confirm.body.user).toMatchObject({ email: next, email_tmp: null, activated: true });
    const again = await call('POST', `${ACCOUNT}/profile/email-change/confirm`, {
      cookie,
      body: { challenge },
    });
    expect(again.status).toBe(409);
    expect(await auditActions(user.id)).toEqual(
      expect.arrayContaining(['account.email_change_requested', 'account.email_changed']),
    );
  });

  it('sends staff to the admin account screen', async () => {
    const { user, cookie } = await signedInUser({ role: 'AUTHOR' });
    const next = `author-next-${user.id}@example.com`;
    await call('POST', `${DASHBOARD}/profile/update`, {
      cookie,
      body: { username: user.username, email: next },
    });
    const mail = await smtp.waitForMessage(next);
    expect(mail.links.join(' ')).toContain('/en/admin/account/email/change/verify?challenge=');
  });

  it('refuses an address another account has', async () => {
    const other = await createUser(db);
    const { user, cookie } = await signedInUser();
    const answer = await call('POST', `${ACCOUNT}/profile/update`, {
      cookie,
      body: { username: user.username, email: other.email },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors_validation).toEqual({ email: ['input_errors.email_taken'] });
  });

  it('resends the link, and cancelling makes the old link useless', async () => {
    const { user, cookie } = await signedInUser();
    const next = `resend-${user.id}@example.com`;
    await call('POST', `${ACCOUNT}/profile/update`, {
      cookie,
      body: { username: user.username, email: next },
    });
    smtp.clear();
    const resend = await call('POST', `${ACCOUNT}/profile/email-change/resend`, { cookie });
    expect(resend.status).toBe(200);
    const mail = await smtp.waitForMessage(next);
    const challenge =
      new URL(mail.links.find((href) => href.includes('challenge=')) ?? '').searchParams.get(
        'challenge',
      ) ?? '';

    const cancel = await call('POST', `${ACCOUNT}/profile/email-change/cancel`, { cookie });
    expect(cancel.status).toBe(200);
    expect(cancel.body.user).toMatchObject({ email: user.email, email_tmp: null });
    const confirm = await call('POST', `${ACCOUNT}/profile/email-change/confirm`, {
      cookie,
      body: { challenge },
    });
    expect(confirm.status).toBe(409);
    expect(confirm.body.errors_info).toEqual(['errors.email_change_failed']);

    const nothing = await call('POST', `${ACCOUNT}/profile/email-change/cancel`, { cookie });
    expect(nothing.status).toBe(409);
    expect(nothing.body.errors_info).toEqual(['errors.no_email_change']);
  });

  it("refuses another user's link", async () => {
    const a = await signedInUser();
    const b = await signedInUser();
    const next = `shared-${a.user.id}@example.com`;
    await call('POST', `${ACCOUNT}/profile/update`, {
      cookie: a.cookie,
      body: { username: a.user.username, email: next },
    });
    const mail = await smtp.waitForMessage(next);
    const challenge =
      new URL(mail.links.find((href) => href.includes('challenge=')) ?? '').searchParams.get(
        'challenge',
      ) ?? '';
    await db.update(users).set({ emailTmp: next }).where(eq(users.id, b.user.id));
    const stolen = await call('POST', `${ACCOUNT}/profile/email-change/confirm`, {
      cookie: b.cookie,
      body: { challenge },
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.errors_info).toEqual(['errors.link_invalid']);
  });
});

describe('e-mail change: what it leaves behind and what it refuses', () => {
  it('kills a password-reset link mailed to the old address once the new one is confirmed', async () => {
    const { user, cookie } = await signedInUser();
    await call('POST', '/api/public/v1/auth/password/forgot', { body: { email: user.email } });
    const reset = await mailedChallenge(user.email);
    const next = `moved-${user.id}@example.com`;
    await call('POST', `${ACCOUNT}/profile/update`, {
      cookie,
      body: { username: user.username, email: next },
    });
    const confirm = await call('POST', `${ACCOUNT}/profile/email-change/confirm`, {
      cookie,
      body: { challenge: await mailedChallenge(next) },
    });
    expect(confirm.status).toBe(200);
    const live = await db.select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, user.id));
    expect(live).toEqual([]);
    const used = await call('POST', '/api/public/v1/auth/password/reset', {
      body: { challenge: reset, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
    });
    expect(used.status).toBe(400);
    expect(used.body.errors_info).toEqual(['errors.link_invalid']);
    await signIn(call, next);
  });

  it('keeps the links of the new address and of other kinds', async () => {
    const { user, cookie } = await signedInUser();
    const next = `kept-${user.id}@example.com`;
    await call('POST', `${ACCOUNT}/profile/update`, {
      cookie,
      body: { username: user.username, email: next },
    });
    const challenge = await mailedChallenge(next);
    // A reset asked for after the change went out to the new address: it must survive.
    await db.insert(oneTimeTokens).values({
      type: 'password_reset',
      userId: user.id,
      email: next,
      tokenHash: `kept-${user.id}`,
      expiresAt: new Date(Date.now() + 60_000),
    });
    await call('POST', `${ACCOUNT}/profile/email-change/confirm`, { cookie, body: { challenge } });
    const live = await db.select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, user.id));
    expect(live).toMatchObject([{ type: 'password_reset', email: next }]);
  });

  it('audits every refused confirmation with its reason', async () => {
    const { user, cookie } = await signedInUser();
    const next = `audited-${user.id}@example.com`;
    const confirm = (challenge: string) =>
      call('POST', `${ACCOUNT}/profile/email-change/confirm`, { cookie, body: { challenge } });
    expect((await confirm('garbage')).status).toBe(400);
    await call('POST', `${ACCOUNT}/profile/update`, {
      cookie,
      body: { username: user.username, email: next },
    });
    const good = await mailedChallenge(next);
    const decoded = decodeChallenge(good);
    const forged = Buffer.from(
      JSON.stringify({ email: next, token: `${decoded?.token ?? ''}x` }),
    ).toString('base64url');
    expect((await confirm(forged)).status).toBe(400);
    const elsewhere = Buffer.from(
      JSON.stringify({ email: 'elsewhere@example.com', token: decoded?.token }),
    ).toString('base64url');
    expect((await confirm(elsewhere)).status).toBe(409);
    const rows = await auditRows(user.id, 'account.email_change_failed');
    expect(rows.map((row) => row.data)).toEqual([
      { reason: 'malformed' },
      { reason: 'invalid_token' },
      { reason: 'not_pending' },
    ]);
    // The failures did not spend the real link.
    expect((await confirm(good)).status).toBe(200);
  });

  it("leaves the owner's link working when another account tries it", async () => {
    const a = await signedInUser();
    const b = await signedInUser();
    const next = `owned-${a.user.id}@example.com`;
    await call('POST', `${ACCOUNT}/profile/update`, {
      cookie: a.cookie,
      body: { username: a.user.username, email: next },
    });
    const challenge = await mailedChallenge(next);
    await db.update(users).set({ emailTmp: next }).where(eq(users.id, b.user.id));
    const stolen = await call('POST', `${ACCOUNT}/profile/email-change/confirm`, {
      cookie: b.cookie,
      body: { challenge },
    });
    expect(stolen.status).toBe(400);
    expect((await auditRows(b.user.id, 'account.email_change_failed'))[0]?.data).toEqual({
      reason: 'foreign',
    });
    const owner = await call('POST', `${ACCOUNT}/profile/email-change/confirm`, {
      cookie: a.cookie,
      body: { challenge },
    });
    expect(owner.status).toBe(200);
  });
});

describe('limits', () => {
  it('limits e-mail changes per account, switching back and forth included', async () => {
    const { user, cookie } = await signedInUser();
    const ip = '192.0.2.10';
    const change = (email: string) =>
      call('POST', `${ACCOUNT}/profile/update`, {
        cookie,
        ip,
        body: { username: user.username, email },
      });
    const [first, second] = [`one-${user.id}@example.com`, `two-${user.id}@example.com`];
    for (let i = 0; i < 5; i++) expect((await change(i % 2 ? second : first)).status).toBe(200);
    const refused = await change(second);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('too_many_requests');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const sent = await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, first));
    expect(sent).toHaveLength(3);
    // The resend shares the count; typing the current address back sends nothing and passes.
    expect((await call('POST', `${ACCOUNT}/profile/email-change/resend`, { cookie })).status).toBe(
      429,
    );
    expect((await change(user.email)).status).toBe(200);
  });

  it('limits e-mail changes per client address, before telling whether one is taken', async () => {
    const ip = '192.0.2.20';
    const taken = await createUser(db);
    let last = 0;
    for (let n = 0; n < 5; n++) {
      const { user, cookie } = await signedInUser();
      for (let i = 0; i < 4; i++) {
        const answer = await call('POST', `${ACCOUNT}/profile/update`, {
          cookie,
          ip,
          body: { username: user.username, email: `ip${n}-${i}-${user.id}@example.com` },
        });
        expect(answer.status).toBe(200);
      }
      if (n === 4) {
        last = (
          await call('POST', `${ACCOUNT}/profile/update`, {
            cookie,
            ip,
            body: { username: user.username, email: taken.email },
          })
        ).status;
      }
    }
    expect(last).toBe(429);
  });

  it('limits avatar uploads per account before reading the file', async () => {
    const { user, cookie } = await signedInUser();
    const small = await png(16, 16);
    for (let i = 0; i < 10; i++) {
      const answer = await call('POST', `${ACCOUNT}/profile/update`, {
        cookie,
        form: photoForm(small),
      });
      expect(answer.status).toBe(200);
    }
    const refused = await call('POST', `${ACCOUNT}/profile/update`, {
      cookie,
      form: photoForm(small),
    });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(await auditRows(user.id, 'account.photo_updated')).toHaveLength(10);
  });
});

describe('password change', () => {
  it('needs the current password, shown under that field', async () => {
    const { cookie } = await signedInUser();
    const answer = await call('POST', `${ACCOUNT}/profile/update-password`, {
      cookie,
      body: {
        current_password: 'Wr0ng#password',
        password: NEW_PASSWORD,
        password_confirmation: NEW_PASSWORD,
      },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors_validation).toEqual({
      current_password: ['errors.password_incorrect'],
    });
  });

  it.each([
    [{ password: 'short1!', password_confirmation: 'short1!' }, 'password'],
    [{ password: NEW_PASSWORD, password_confirmation: 'other' }, 'password_confirmation'],
  ])('checks the new password by the §5 rules: %j', async (pair, field) => {
    const { cookie } = await signedInUser();
    const answer = await call('POST', `${ACCOUNT}/profile/update-password`, {
      cookie,
      body: { current_password: TEST_PASSWORD, ...pair },
    });
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body.errors_validation as object)).toContain(field);
  });

  it('changes it, ends the other sessions and gives this one a new token', async () => {
    const { user, cookie } = await signedInUser();
    const other = await signIn(call, user.email);
    const answer = await call('POST', `${ACCOUNT}/profile/update-password`, {
      cookie,
      body: {
        current_password: TEST_PASSWORD,
        password: NEW_PASSWORD,
        password_confirmation: NEW_PASSWORD,
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.cookie).toBeDefined();
    expect(answer.cookie).not.toBe(cookie);
    const me = (c: string) => call('POST', `${ACCOUNT}/users/get-auth-user`, { cookie: c });
    expect((await me(cookie)).status).toBe(401);
    expect((await me(other)).status).toBe(401);
    expect((await me(answer.cookie ?? '')).status).toBe(200);
    await signIn(call, user.email, NEW_PASSWORD);
    expect((await smtp.waitForMessage(user.email)).subject).toMatch(/password/i);
    expect(await auditActions(user.id)).toContain('account.password_changed');
  });
});

describe('password set link (accounts without a password)', () => {
  it('e-mails a password.set link that sets the first password', async () => {
    const { user, cookie } = await signedInUser();
    await db.update(users).set({ passwordHash: null }).where(eq(users.id, user.id));
    const me = await call('POST', `${ACCOUNT}/users/get-auth-user`, { cookie });
    expect(me.body.user).toMatchObject({ has_password: false });

    const sent = await call('POST', `${ACCOUNT}/profile/password-set-link`, {
      cookie,
      body: { locale: 'nl' },
    });
    expect(sent.status).toBe(200);
    const mail = await smtp.waitForMessage(user.email);
    const link = mail.links.find((href) => href.includes('challenge=')) ?? '';
    expect(link).toMatch(/^http:\/\/localhost:3000\/nl\/password\/set\?challenge=/);

    const set = await call('POST', '/api/all/v1/auth/password/set', {
      cookie,
      body: {
        challenge: new URL(link).searchParams.get('challenge'),
        password: NEW_PASSWORD,
        password_confirmation: NEW_PASSWORD,
      },
    });
    expect(set.status).toBe(200);
    const after = await call('POST', `${ACCOUNT}/users/get-auth-user`, { cookie: set.cookie });
    expect(after.body.user).toMatchObject({ has_password: true });
    await signIn(call, user.email, NEW_PASSWORD);
  });

  it('refuses an account that has a password', async () => {
    const { cookie } = await signedInUser();
    const answer = await call('POST', `${ACCOUNT}/profile/password-set-link`, { cookie });
    expect(answer.status).toBe(409);
    expect(answer.body.errors_info).toEqual(['errors.password_already_set']);
  });
});

describe('avatar', () => {
  it('re-encodes an upload into a square WebP served from the site origin', async () => {
    const { user, cookie } = await signedInUser();
    const answer = await call('POST', `${ACCOUNT}/profile/update`, {
      cookie,
      form: photoForm(await png()),
    });
    expect(answer.status).toBe(200);
    const photo = (answer.body.user as { photo: string }).photo;
    expect(photo).toMatch(/^\/media\/avatars\/[\w-]+\.webp$/);

    const served = await app.inject({ method: 'GET', url: photo });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toContain('immutable');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
    expect(await auditActions(user.id)).toContain('account.photo_updated');

    const replaced = await call('POST', `${ACCOUNT}/profile/update`, {
      cookie,
      form: photoForm(await png(100, 100)),
    });
    expect((replaced.body.user as { photo: string }).photo).not.toBe(photo);
    expect((await app.inject({ method: 'GET', url: photo })).statusCode).toBe(404);
  });

  it('refuses a file that is not an image, whatever its name says', async () => {
    const { cookie } = await signedInUser();
    const fake = Buffer.from('<?php echo "hello"; ?>'.repeat(100));
    const answer = await call('POST', `${ACCOUNT}/profile/update`, {
      cookie,
      form: photoForm(fake, 'photo.png', 'image/png'),
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors_validation).toEqual({ photo: ['errors.image_invalid'] });
  });

  it('refuses an SVG, which can carry script', async () => {
    const { cookie } = await signedInUser();
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    const answer = await call('POST', `${ACCOUNT}/profile/update`, {
      cookie,
      form: photoForm(svg, 'a.svg', 'image/svg+xml'),
    });
    expect(answer.status).toBe(422);
  });

  it('refuses 21 MB with the message on the photo field (§5)', async () => {
    const { user, cookie } = await signedInUser();
    const big = Buffer.concat([await png(), Buffer.alloc(21 * 1024 * 1024)]);
    const answer = await call('POST', `${ACCOUNT}/profile/update`, {
      cookie,
      form: photoForm(big),
    });
    expect(answer.status).toBe(413);
    expect(answer.body.errors_validation).toEqual({ photo: ['errors.image_too_large'] });
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row?.photo).toBeNull();
  });

  it('answers 400 on the photo field to a multipart body without a boundary', async () => {
    const { cookie } = await signedInUser();
    const answer = await call('POST', `${ACCOUNT}/profile/update`, {
      cookie,
      body: Buffer.from('not really multipart'),
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      code: 'bad_request',
      errors_validation: { photo: ['errors.image_invalid'] },
    });
  });

  it('answers 400 on the photo field to a body cut short', async () => {
    const { user, cookie } = await signedInUser();
    const whole = new Request('http://localhost/', {
      method: 'POST',
      body: photoForm(await png()),
    });
    const bytes = Buffer.from(await whole.arrayBuffer());
    for (const cut of [bytes.length - 60, 40]) {
      const answer = await call('POST', `${ACCOUNT}/profile/update`, {
        cookie,
        body: bytes.subarray(0, cut),
        headers: { 'content-type': whole.headers.get('content-type') ?? '' },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.errors_validation).toEqual({ photo: ['errors.image_invalid'] });
    }
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row?.photo).toBeNull();
  });

  it('removes the photo and its file', async () => {
    const { cookie } = await signedInUser();
    const uploaded = await call('POST', `${ACCOUNT}/profile/update`, {
      cookie,
      form: photoForm(await png()),
    });
    const photo = (uploaded.body.user as { photo: string }).photo;
    const removed = await call('POST', `${ACCOUNT}/profile/remove-user-photo`, { cookie });
    expect(removed.status).toBe(200);
    expect(removed.body.user).toMatchObject({ photo: null });
    expect((await app.inject({ method: 'GET', url: photo })).statusCode).toBe(404);
  });

  it('serves no path outside the storage', async () => {
    for (const url of ['/media/../package.json', '/media/avatars/..%2f..%2fpackage.json']) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
  });
});

describe('deactivation and reactivation', () => {
  it('needs the password, shown under the field', async () => {
    const { cookie } = await signedInUser();
    const wrong = await call('POST', `${ACCOUNT}/profile/delete`, {
      cookie,
      body: { password: 'Wr0ng#password' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors_validation).toEqual({ password: ['errors.password_incorrect'] });
    const empty = await call('POST', `${ACCOUNT}/profile/delete`, { cookie, body: {} });
    expect(empty.body.errors_validation).toEqual({ password: ['input_errors.field_is_required'] });
  });

  it('sets delete_at, limits the account to reactivation, and reactivation clears it', async () => {
    const { user, cookie } = await signedInUser();
    const deleted = await call('POST', `${ACCOUNT}/profile/delete`, {
      cookie,
      body: { password: TEST_PASSWORD },
    });
    expect(deleted.status).toBe(200);
    const deleteAt = new Date((deleted.body.user as { delete_at: string }).delete_at);
    expect(deleteAt.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    const blocked = await call('POST', `${ACCOUNT}/profile/update`, {
      cookie,
      body: { username: user.username, email: user.email },
    });
    expect(blocked.status).toBe(403);
    expect(blocked.body.errors_info).toEqual(['errors.account_deactivated']);
    const devices = await call('GET', `${ACCOUNT}/devices/list`, { cookie });
    expect(devices.status).toBe(403);
    const me = await call('POST', `${ACCOUNT}/users/get-auth-user`, { cookie });
    expect(me.body.user).toMatchObject({ delete_at: deleteAt.toISOString() });

    const back = await call('POST', `${ACCOUNT}/profile/delete/cancel`, { cookie });
    expect(back.status).toBe(200);
    expect(back.body.user).toMatchObject({ delete_at: null });
    const twice = await call('POST', `${ACCOUNT}/profile/delete/cancel`, { cookie });
    expect(twice.status).toBe(409);
    expect(await auditActions(user.id)).toEqual(
      expect.arrayContaining(['account.deactivated', 'account.reactivated']),
    );
  });

  it('limits wrong passwords per account', async () => {
    const { cookie } = await signedInUser();
    let last = 0;
    for (let i = 0; i < 6; i++) {
      last = (
        await call('POST', `${ACCOUNT}/profile/delete`, {
          cookie,
          body: { password: 'Wr0ng#password' },
        })
      ).status;
    }
    expect(last).toBe(429);
  });
});

it('never leaves a session of a deleted user behind', async () => {
  const { user, cookie } = await signedInUser();
  await db.delete(users).where(eq(users.id, user.id));
  const rows = await db.select().from(sessions).where(sql`${sessions.userId} = ${user.id}`);
  expect(rows).toHaveLength(0);
  expect((await call('POST', `${ACCOUNT}/users/get-auth-user`, { cookie })).status).toBe(401);
});
