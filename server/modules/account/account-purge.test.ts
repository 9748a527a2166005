import { and, eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  auditLog,
  mailOutbox,
  oauthAccounts,
  oneTimeTokens,
  sessions,
  twoFactorRecoveryCodes,
  users,
} from '../../db/schema/index.ts';
import { apiClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { createUser, signIn } from '../../test/test-users.ts';
import { issueToken } from '../identity/one-time-tokens.ts';
import { replaceRecoveryCodes } from '../identity/two-factor/recovery-codes.ts';
import { purgeDeletedAccounts } from './account-purge.ts';

const { app } = await createTestApp();
const db = app.db;
const call = apiClient(app);
const DAY = 86_400_000;

/** A user with a session, an avatar, tokens, recovery codes and a social link. */
async function fullAccount(deleteAt: Date | null) {
  const user = await createUser(db);
  const cookie = await signIn(call, user.email);
  const form = new FormData();
  const image = await sharp({
    create: { width: 32, height: 32, channels: 3, background: '#113355' },
  })
    .png()
    .toBuffer();
  form.append('photo', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'me.png');
  const uploaded = await call('POST', '/api/account/v1/profile/update', { cookie, form });
  const photo = (uploaded.body.user as { photo: string }).photo;
  await issueToken(db, 'password_reset', user.id, user.email);
  await replaceRecoveryCodes(db, user.id);
  await db
    .insert(oauthAccounts)
    .values({ userId: user.id, provider: 'google', subject: `sub-${user.id}` });
  await db.update(users).set({ deleteAt }).where(eq(users.id, user.id));
  return { user, cookie, photo };
}

const rowsOf = async (userId: number) => ({
  users: await db.select().from(users).where(eq(users.id, userId)),
  sessions: await db.select().from(sessions).where(eq(sessions.userId, userId)),
  tokens: await db.select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, userId)),
  codes: await db
    .select()
    .from(twoFactorRecoveryCodes)
    .where(eq(twoFactorRecoveryCodes.userId, userId)),
  links: await db.select().from(oauthAccounts).where(eq(oauthAccounts.userId, userId)),
});

const deletions = (userIds: number[]) =>
  db
    .select()
    .from(auditLog)
    .where(
      inArray(
        auditLog.subjectId,
        userIds.map((id) => String(id)),
      ),
    )
    .then((rows) => rows.filter((row) => row.action === 'account.deleted'));

describe('purging accounts past their delete date', () => {
  it('deletes them with what belongs to them, and keeps the rest', async () => {
    const due = await fullAccount(new Date(Date.now() - 60_000));
    const waiting = await fullAccount(new Date(Date.now() + DAY));
    const active = await fullAccount(null);

    expect(await purgeDeletedAccounts(app)).toBeGreaterThanOrEqual(1);

    expect(await rowsOf(due.user.id)).toEqual({
      users: [],
      sessions: [],
      tokens: [],
      codes: [],
      links: [],
    });
    expect((await app.inject({ method: 'GET', url: due.photo })).statusCode).toBe(404);
    const me = await call('POST', '/api/account/v1/users/get-auth-user', { cookie: due.cookie });
    expect(me.status).toBe(401);

    for (const kept of [waiting, active]) {
      const rows = await rowsOf(kept.user.id);
      expect(rows.users).toHaveLength(1);
      expect(rows.sessions).toHaveLength(1);
      expect(rows.links).toHaveLength(1);
      expect((await app.inject({ method: 'GET', url: kept.photo })).statusCode).toBe(200);
    }
  });

  it('leaves an audit entry that outlives the account, and keeps its earlier ones', async () => {
    const due = await fullAccount(new Date(Date.now() - 1000));
    await purgeDeletedAccounts(app);
    const [entry] = await deletions([due.user.id]);
    expect(entry).toMatchObject({
      actorId: null,
      subjectType: 'user',
      subjectId: String(due.user.id),
      ip: null,
    });
    expect(JSON.stringify(entry?.data)).not.toContain(due.user.email);
    // What the user did before stays on record; only the link to the gone row is cut.
    const earlier = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectId, String(due.user.id)));
    expect(earlier.map((row) => row.action)).toEqual(
      expect.arrayContaining(['auth.signed_in', 'account.photo_updated', 'account.deleted']),
    );
    expect(earlier.every((row) => row.actorId === null)).toBe(true);
  });

  it('forgets the addresses: mail sent to them, and addresses in audit data', async () => {
    const due = await fullAccount(null);
    const old = due.user.email;
    const changed = `renamed-${due.user.id}@example.com`;
    await db.update(users).set({ email: changed }).where(eq(users.id, due.user.id));
    await db.insert(auditLog).values([
      {
        action: 'account.email_changed',
        subjectType: 'user',
        subjectId: String(due.user.id),
        data: { from: old, to: changed },
      },
      // A failed sign-in typed by someone who was not signed in names the address only.
      { action: 'auth.sign_in_failed', data: { email: changed, reason: 'wrong' } },
      { action: 'auth.sign_in_failed', data: { email: 'someone-else@example.com' } },
    ]);
    await db.insert(mailOutbox).values(
      [old, changed, 'someone-else@example.com'].map((toAddress) => ({
        template: 'email_verify',
        toAddress,
        subject: 'Verify',
        html: '<p>hi</p>',
        text: 'hi',
        status: 'sent',
      })),
    );
    await db
      .update(users)
      .set({ deleteAt: new Date(Date.now() - 1000) })
      .where(eq(users.id, due.user.id));

    await purgeDeletedAccounts(app);

    const mail = await db.select({ to: mailOutbox.toAddress }).from(mailOutbox);
    expect(mail.map((row) => row.to)).not.toContain(old);
    expect(mail.map((row) => row.to)).not.toContain(changed);
    expect(mail.map((row) => row.to)).toContain('someone-else@example.com');
    const audit = JSON.stringify(await db.select().from(auditLog));
    expect(audit).not.toContain(old);
    expect(audit).not.toContain(changed);
    expect(audit).toContain('someone-else@example.com');
    const [changeRow] = await db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.subjectId, String(due.user.id)),
          eq(auditLog.action, 'account.email_changed'),
        ),
      );
    expect(changeRow?.data).toEqual({});
  });

  it('forgets the mail sent to addresses it only asked for: a change replaced, one cancelled', async () => {
    const due = await fullAccount(null);
    const [replaced, cancelled] = ['replaced', 'cancelled'].map(
      (kind) => `${kind}-${due.user.id}@example.com`,
    );
    const update = (email: string) =>
      call('POST', '/api/account/v1/profile/update', {
        cookie: due.cookie,
        body: { username: due.user.username, email },
      });
    expect((await update(replaced ?? '')).status).toBe(200);
    expect((await update(cancelled ?? '')).status).toBe(200);
    const cancel = await call('POST', '/api/account/v1/profile/email-change/cancel', {
      cookie: due.cookie,
    });
    expect(cancel.body.user).toMatchObject({ email: due.user.email, email_tmp: null });
    const mailTo = async () =>
      (await db.select({ to: mailOutbox.toAddress }).from(mailOutbox)).map((row) => row.to);
    // Each confirmation link went out to its address.
    expect(await mailTo()).toEqual(expect.arrayContaining([replaced, cancelled]));
    await db
      .update(users)
      .set({ deleteAt: new Date(Date.now() - 1000) })
      .where(eq(users.id, due.user.id));

    await purgeDeletedAccounts(app);

    const left = await mailTo();
    for (const address of [due.user.email, replaced, cancelled]) {
      expect(left).not.toContain(address);
    }
    const audit = JSON.stringify(await db.select().from(auditLog));
    expect(audit).not.toContain(replaced);
    expect(audit).not.toContain(cancelled);
  });

  it('deletes each account once when several processes purge at the same time', async () => {
    const due = await Promise.all([1, 2, 3].map(() => fullAccount(new Date(Date.now() - 1000))));
    const counts = await Promise.all([purgeDeletedAccounts(app), purgeDeletedAccounts(app)]);
    const ids = due.map(({ user }) => user.id);
    expect(await db.select().from(users).where(inArray(users.id, ids))).toEqual([]);
    expect(await deletions(ids)).toHaveLength(3);
    expect(counts[0] + counts[1]).toBe(3);
    expect(await purgeDeletedAccounts(app)).toBe(0);
  });

  it('spares an account reactivated before its turn', async () => {
    const { user, cookie } = await fullAccount(new Date(Date.now() - 1000));
    const back = await call('POST', '/api/account/v1/profile/delete/cancel', { cookie });
    expect(back.status).toBe(200);
    await purgeDeletedAccounts(app);
    expect((await rowsOf(user.id)).users).toHaveLength(1);
  });

  it('is scheduled by the app itself', () => {
    expect(app.hasPlugin('jobs')).toBe(true);
  });
});
