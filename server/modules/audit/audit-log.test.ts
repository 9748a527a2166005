import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, mailOutbox, oauthProviders, sessions, users } from '../../db/schema/index.ts';
import { apiClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { createUser, signIn, TEST_PASSWORD } from '../../test/test-users.ts';
import { saveProviderSettings } from '../oauth/provider-settings.ts';
import type { AuditAction } from './audit-log.ts';

// An audit row commits with the change it records, or neither does. Proven by making the
// row's insert fail, as a lost connection or a full disk would, through a trigger that
// exists in this file's database only: the change it records must be rolled back too.

const { app } = await createTestApp();
const db = app.db;
const call = apiClient(app);

const ACCOUNT = '/api/account/v1';
const ME = `${ACCOUNT}/users/get-auth-user`;
const NEW_PASSWORD = 'N3w#passw0rd!';

/** The actions whose rows the trigger refuses; signing in (the tests' setup) still works. */
const REFUSED: readonly AuditAction[] = [
  'auth.signed_up',
  'auth.signed_out',
  'account.deactivated',
  'account.email_change_requested',
  'account.password_changed',
  'account.photo_updated',
  'account.other_devices_logged_out',
  'two_factor.setup_started',
  'oauth.provider_updated',
];

beforeAll(async () => {
  await db.execute(
    sql.raw(`create function refuse_audit_row() returns trigger language plpgsql as $$
      begin
        if new.action = any(tg_argv) then
          raise exception 'audit row refused for %', new.action;
        end if;
        return new;
      end $$`),
  );
  const actions = REFUSED.map((action) => `'${action}'`).join(', ');
  await db.execute(
    sql.raw(`create trigger refuse_audit_row before insert on audit_log
      for each row execute function refuse_audit_row(${actions})`),
  );
});

const rowsOf = (action: AuditAction, userId: number) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.subjectId, String(userId))));

const userRow = async (id: number) => {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
};

async function signedInUser() {
  const user = await createUser(db);
  return { user, cookie: await signIn(call, user.email) };
}

describe('a change whose audit row cannot be written does not happen', () => {
  it('sign-up: no account, and no verification mail', async () => {
    const email = `refused-${Date.now()}@example.com`;
    const answer = await call('POST', '/api/public/v1/auth/sign-up', {
      body: { email, password: TEST_PASSWORD, password_confirmation: TEST_PASSWORD },
    });
    expect(answer.status).toBe(500);
    expect(await db.select().from(users).where(eq(users.email, email))).toEqual([]);
    expect(await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email))).toEqual([]);
  });

  it('sign-out: the session lives on', async () => {
    const { cookie } = await signedInUser();
    expect((await call('POST', '/api/all/v1/auth/sign-out', { cookie })).status).toBe(500);
    expect((await call('POST', ME, { cookie })).status).toBe(200);
  });

  it('deactivation: no delete date', async () => {
    const { user, cookie } = await signedInUser();
    const answer = await call('POST', `${ACCOUNT}/profile/delete`, {
      cookie,
      body: { password: TEST_PASSWORD },
    });
    expect(answer.status).toBe(500);
    expect((await userRow(user.id))?.deleteAt).toBeNull();
    expect(await rowsOf('account.deactivated', user.id)).toEqual([]);
  });

  it('a profile update with a new address: neither the name nor the address, nor its mail', async () => {
    const { user, cookie } = await signedInUser();
    const newEmail = `moving-${user.id}@example.com`;
    const answer = await call('POST', `${ACCOUNT}/profile/update`, {
      cookie,
      body: { name: 'Renamed', username: user.username, email: newEmail },
    });
    expect(answer.status).toBe(500);
    expect(await userRow(user.id)).toMatchObject({ name: user.name, emailTmp: null });
    // The profile row was written first in the same transaction: it went with the rest.
    expect(await rowsOf('account.profile_updated', user.id)).toEqual([]);
    expect(await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, newEmail))).toEqual(
      [],
    );
  });

  it('a new photo: the account keeps none, and the uploaded file is removed again', async () => {
    const { user, cookie } = await signedInUser();
    const image = await sharp({
      create: { width: 32, height: 32, channels: 3, background: '#335511' },
    })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('photo', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'me.png');
    const put = vi.spyOn(app.storage, 'put');
    let key: string | undefined;
    try {
      const answer = await call('POST', `${ACCOUNT}/profile/update`, { cookie, form });
      expect(answer.status).toBe(500);
      key = put.mock.calls[0]?.[0];
    } finally {
      put.mockRestore();
    }
    expect((await userRow(user.id))?.photo).toBeNull();
    expect(key).toMatch(/^avatars\//);
    expect(await app.storage.get(key ?? '')).toBeUndefined();
  });

  it('a password change: the old password still works, the other session lives on', async () => {
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
    expect(answer.status).toBe(500);
    expect((await call('POST', ME, { cookie: other })).status).toBe(200);
    expect((await call('POST', ME, { cookie })).status).toBe(200);
    await signIn(call, user.email, TEST_PASSWORD);
  });

  it('logging the other devices out: every session lives on', async () => {
    const { user, cookie } = await signedInUser();
    const phone = await signIn(call, user.email);
    const answer = await call('POST', `${ACCOUNT}/devices/logout-other-devices`, {
      cookie,
      body: { password: TEST_PASSWORD },
    });
    expect(answer.status).toBe(500);
    expect((await call('POST', ME, { cookie: phone })).status).toBe(200);
    expect(await db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(2);
  });

  it('starting two-factor setup: no secret is kept', async () => {
    const { user, cookie } = await signedInUser();
    const answer = await call('POST', `${ACCOUNT}/profile/two-factor-authentication/enable`, {
      cookie,
    });
    expect(answer.status).toBe(500);
    expect((await userRow(user.id))?.twoFactorSecret).toBeNull();
  });

  it('saving an OAuth provider: no settings are stored', async () => {
    const admin = await createUser(db, { role: 'ADMIN' });
    const saving = saveProviderSettings(app, { ip: '203.0.113.9', headers: {} }, admin.id, {
      id: 'google',
      enabled: false,
      clientId: '',
    });
    await expect(saving).rejects.toThrow();
    expect(await db.select().from(oauthProviders).where(eq(oauthProviders.id, 'google'))).toEqual(
      [],
    );
  });
});

describe('the trigger itself', () => {
  it('lets every other action through, so the refusals above are its only doing', async () => {
    const { user, cookie } = await signedInUser();
    const answer = await call('POST', `${ACCOUNT}/profile/update`, {
      cookie,
      body: { name: 'Allowed', username: user.username, email: user.email },
    });
    expect(answer.status).toBe(200);
    expect(await userRow(user.id)).toMatchObject({ name: 'Allowed' });
    expect(await rowsOf('account.profile_updated', user.id)).toHaveLength(1);
  });
});
