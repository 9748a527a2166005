import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { customerEndpoints as e } from '#shared/contracts/admin/customers.ts';
import { authEndpoints } from '#shared/contracts/auth.ts';
import { REALTIME_EVENTS, systemEventsChannel } from '#shared/contracts/realtime.ts';
import { auditLog, sessions, users } from '../../db/schema/index.ts';
import { endpointClient } from '../../test/api-client.ts';
import { connectClient, connected, nextEvent, startApp } from '../../test/test-realtime.ts';
import { sessionFor, signedInUser } from '../../test/test-sessions.ts';
import { startTestSmtp } from '../../test/test-smtp.ts';
import { createUser, TEST_PASSWORD } from '../../test/test-users.ts';

// §2 /admin/customers and §7 dashboard /users, through the real routes, database, SMTP
// server and realtime server. Who may call them at all is the authorization matrix's.
const smtp = await startTestSmtp();
afterAll(() => smtp.close());
const { app, port } = await startApp({ SMTP_URL: smtp.url });
const api = endpointClient(app);
const admin = await signedInUser(app, { role: 'ADMIN', name: 'Root Admin' });
const as = { cookie: admin.cookie };

/** The audit row of `action` on the account, written by the acting admin. */
async function audited(subjectId: number, action: string) {
  const [row] = await app.db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.subjectType, 'user'),
        eq(auditLog.subjectId, String(subjectId)),
        eq(auditLog.action, action),
      ),
    );
  return row;
}

async function liveChannel(userId: number) {
  const client = connectClient(port, { presence: { user_id: String(userId) } });
  await connected(client);
  const channel = client.subscribe(systemEventsChannel(userId));
  await nextEvent(channel, 'pusher:subscription_succeeded');
  return { channel, close: () => client.disconnect() };
}

describe('the customers list', () => {
  const tag = `list${Date.now().toString(36)}`;
  const made = Promise.all([
    createUser(app.db, { email: `${tag}-anna@example.com`, name: 'Anna Zed' }),
    createUser(app.db, {
      email: `${tag}-bert@example.com`,
      name: 'Bert Young',
      blockedAt: new Date(),
    }),
    createUser(app.db, {
      email: `${tag}-cleo@example.com`,
      name: 'Cleo Xu',
      emailVerifiedAt: null,
    }),
    createUser(app.db, { email: `${tag}-dora@example.com`, name: 'Dora Wu', role: 'AUTHOR' }),
  ]);

  it('searches by e-mail, name or username, case-insensitively', async () => {
    await made;
    const byEmail = await api(e.list, { ...as, query: { search: `${tag}-ANNA` } });
    expect(byEmail.status).toBe(200);
    expect(byEmail.data.items.map((user) => user.name)).toEqual(['Anna Zed']);
    const byName = await api(e.list, { ...as, query: { search: 'bert young' } });
    expect(byName.data.items.map((user) => user.email)).toContain(`${tag}-bert@example.com`);
    const literal = await api(e.list, { ...as, query: { search: '%' } });
    expect(literal.data.items).toEqual([]);
  });

  it('filters by role, verified, blocked and deactivated', async () => {
    await made;
    const q = (query: Record<string, string>) =>
      api(e.list, { ...as, query: { search: tag, ...query } }).then((a) =>
        a.data.items.map((user) => user.name).sort(),
      );
    expect(await q({ blocked: 'true' })).toEqual(['Bert Young']);
    expect(await q({ verified: 'false' })).toEqual(['Cleo Xu']);
    expect(await q({ role: 'AUTHOR' })).toEqual(['Dora Wu']);
    expect(await q({ deactivated: 'true' })).toEqual([]);
    expect(await q({ blocked: 'false', verified: 'true', role: 'USER' })).toEqual(['Anna Zed']);
  });

  it('sorts either way and pages with controls', async () => {
    await made;
    const asc = await api(e.list, {
      ...as,
      query: { search: tag, sort: 'name', direction: 'asc' },
    });
    expect(asc.data.items.map((user) => user.name)).toEqual([
      'Anna Zed',
      'Bert Young',
      'Cleo Xu',
      'Dora Wu',
    ]);
    const page2 = await api(e.list, {
      ...as,
      query: { search: tag, sort: 'name', direction: 'desc', per_page: 3, page: 2 },
    });
    expect(page2.data.items.map((user) => user.name)).toEqual(['Anna Zed']);
    expect(page2.data.controls).toEqual({ page: 2, per_page: 3, total: 4, last_page: 2 });
  });

  it('puts accounts without a name last, whichever way', async () => {
    const tag2 = `nameless${Date.now().toString(36)}`;
    await createUser(app.db, { email: `${tag2}-a@example.com`, name: null });
    await createUser(app.db, { email: `${tag2}-b@example.com`, name: 'Named' });
    for (const direction of ['asc', 'desc'] as const) {
      const answer = await api(e.list, { ...as, query: { search: tag2, sort: 'name', direction } });
      expect(answer.data.items.map((user) => user.name)).toEqual(['Named', null]);
    }
  });

  it('refuses an unknown sort, filter value or role with 422 under the field', async () => {
    for (const [field, query] of [
      ['sort', { sort: 'password_hash' }],
      ['blocked', { blocked: 'maybe' }],
      ['role', { role: 'ROOT' }],
      ['per_page', { per_page: 1000 }],
    ] as const) {
      const answer = await api(e.list, { ...as, query: query as never });
      expect(answer.status, field).toBe(422);
      expect(Object.keys(answer.body.errors_validation as object)).toEqual([field]);
    }
  });
});

describe('creating a user', () => {
  it('makes an unverified account that can sign in, mails its activation link and audits it', async () => {
    const answer = await api(e.create, {
      ...as,
      body: {
        name: 'New Person',
        email: 'New.Person@Example.com',
        password: 'Fresh#pass123',
        password_confirmation: 'Fresh#pass123',
        role: 'USER',
      },
    });
    expect(answer.status).toBe(201);
    expect(answer.data.user).toMatchObject({
      email: 'new.person@example.com',
      name: 'New Person',
      role: 'USER',
      activated: false,
      blocked: false,
      devices_count: 0,
    });
    const mail = await smtp.waitForMessage('new.person@example.com');
    expect(mail.links.some((link) => link.includes('/email/verify?challenge='))).toBe(true);
    const signIn = await api(authEndpoints.signIn, {
      body: { email: 'new.person@example.com', password: 'Fresh#pass123' },
    });
    expect(signIn.status).toBe(200);
    expect(await audited(answer.data.user.id, 'customers.created')).toMatchObject({
      actorId: admin.user.id,
    });
  });

  it('says under each field what is wrong, and that an address is taken', async () => {
    const taken = await api(e.create, {
      ...as,
      body: {
        name: 'Dup',
        email: admin.user.email,
        password: 'Fresh#pass123',
        password_confirmation: 'Fresh#pass123',
        role: 'USER',
      },
    });
    expect(taken.status).toBe(422);
    expect(taken.body.errors_validation).toEqual({ email: ['input_errors.email_taken'] });
    const bad = await api(e.create, {
      ...as,
      body: {
        name: '',
        email: 'nope',
        password: 'short',
        password_confirmation: 'other',
        role: 'ROOT' as 'USER',
      },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors_validation as object).sort()).toEqual([
      'email',
      'name',
      'password',
      'role',
    ]);
  });
});

describe('one customer', () => {
  it('is shown with its status and live device count; an unknown id is 404', async () => {
    const customer = await signedInUser(app, { name: 'Shown', trafficLimitGb: 50 });
    const answer = await api(e.view, { ...as, query: { user_id: customer.user.id } });
    expect(answer.status).toBe(200);
    expect(answer.data.user).toMatchObject({
      id: customer.user.id,
      name: 'Shown',
      traffic_limit: 50,
      devices_count: 1,
      has_password: true,
    });
    expect(JSON.stringify(answer.body)).not.toMatch(/password_hash|twoFactorSecret|argon2/);
    expect((await api(e.view, { ...as, query: { user_id: 999_999 } })).status).toBe(404);
  });

  it('changes name and country; a new e-mail must be verified again and is told live', async () => {
    const customer = await signedInUser(app, { name: 'Before' });
    const live = await liveChannel(customer.user.id);
    const event = nextEvent<{ user: { email: string; activated: boolean } }>(
      live.channel,
      REALTIME_EVENTS.userUpdated,
    );
    const answer = await api(e.update, {
      ...as,
      body: {
        user_id: customer.user.id,
        name: 'After',
        email: 'moved@example.org',
        country_id: null,
        password: TEST_PASSWORD,
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.data.user).toMatchObject({
      name: 'After',
      email: 'moved@example.org',
      activated: false,
    });
    expect((await event).user).toMatchObject({ email: 'moved@example.org', activated: false });
    live.close();
    await smtp.waitForMessage('moved@example.org');
    expect(await audited(customer.user.id, 'customers.updated')).toMatchObject({
      data: expect.objectContaining({ from: customer.user.email, to: 'moved@example.org' }),
    });
    const taken = await api(e.update, {
      ...as,
      body: { user_id: customer.user.id, name: 'After', email: admin.user.email, country_id: null },
    });
    expect(taken.body.errors_validation).toEqual({ email: ['input_errors.email_taken'] });
  });

  it('sets and lifts the traffic limit, and refuses a negative one', async () => {
    const customer = await createUser(app.db);
    const set = await api(e.updateTrafficLimit, {
      ...as,
      body: { user_id: customer.id, traffic_limit: 100 },
    });
    expect(set.data.user.traffic_limit).toBe(100);
    const lifted = await api(e.updateTrafficLimit, {
      ...as,
      body: { user_id: customer.id, traffic_limit: null },
    });
    expect(lifted.data.user.traffic_limit).toBeNull();
    const negative = await api(e.updateTrafficLimit, {
      ...as,
      body: { user_id: customer.id, traffic_limit: -1 },
    });
    expect(negative.status).toBe(422);
  });
});

describe('blocking', () => {
  it('needs the admin’s password, under the password field', async () => {
    const customer = await createUser(app.db);
    const wrong = await api(e.block, {
      ...as,
      body: { user_id: customer.id, status: true, password: 'Wrong#pass123' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors_validation).toEqual({ password: ['errors.password_incorrect'] });
    const [row] = await app.db.select().from(users).where(eq(users.id, customer.id));
    expect(row?.blockedAt).toBeNull();
  });

  it('ends every session at once, tells the open pages, and unblocks', async () => {
    const customer = await signedInUser(app);
    const second = await sessionFor(app, customer.user);
    const live = await liveChannel(customer.user.id);
    const deleted = nextEvent<{ device_id: string }>(live.channel, REALTIME_EVENTS.deviceDeleted);
    const blocked = await api(e.block, {
      ...as,
      body: { user_id: customer.user.id, status: true, password: TEST_PASSWORD },
    });
    expect(blocked.status).toBe(200);
    expect(blocked.data.user).toMatchObject({ blocked: true, devices_count: 0 });
    expect([customer.sessionId, second.sessionId]).toContain((await deleted).device_id);
    live.close();
    const me = await api(authEndpoints.getAuthUser, { cookie: customer.cookie });
    expect(me.status).toBe(401);
    const signIn = await api(authEndpoints.signIn, {
      body: { email: customer.user.email, password: TEST_PASSWORD },
    });
    expect(signIn.status).toBe(403);
    expect(await audited(customer.user.id, 'customers.blocked')).toMatchObject({
      actorId: admin.user.id,
    });

    const unblocked = await api(e.block, {
      ...as,
      body: { user_id: customer.user.id, status: false, password: TEST_PASSWORD },
    });
    expect(unblocked.data.user.blocked).toBe(false);
    const again = await api(authEndpoints.signIn, {
      body: { email: customer.user.email, password: TEST_PASSWORD },
    });
    expect(again.status).toBe(200);
  });
});

describe('deactivation, passwords and two-factor', () => {
  it('deactivates with a delete date and restores', async () => {
    const customer = await createUser(app.db);
    const body = { user_id: customer.id, password: TEST_PASSWORD };
    const gone = await api(e.delete, { ...as, body });
    expect(gone.data.user.delete_at).not.toBeNull();
    expect((await api(e.delete, { ...as, body })).status).toBe(409);
    const back = await api(e.deleteCancel, { ...as, body });
    expect(back.data.user.delete_at).toBeNull();
    expect((await api(e.deleteCancel, { ...as, body })).status).toBe(409);
    expect(await audited(customer.id, 'customers.reactivated')).toMatchObject({
      actorId: admin.user.id,
    });
  });

  it('sets a new password: the old one and every session stop working, the owner is told', async () => {
    const customer = await signedInUser(app);
    const wrong = await api(e.updatePassword, {
      ...as,
      body: {
        user_id: customer.user.id,
        password: 'Brand#new123',
        password_confirmation: 'Brand#new123',
        current_password: 'Wrong#pass123',
      },
    });
    expect(wrong.body.errors_validation).toEqual({
      current_password: ['errors.password_incorrect'],
    });
    const done = await api(e.updatePassword, {
      ...as,
      body: {
        user_id: customer.user.id,
        password: 'Brand#new123',
        password_confirmation: 'Brand#new123',
        current_password: TEST_PASSWORD,
      },
    });
    expect(done.status).toBe(200);
    expect((await api(authEndpoints.getAuthUser, { cookie: customer.cookie })).status).toBe(401);
    const signIn = await api(authEndpoints.signIn, {
      body: { email: customer.user.email, password: 'Brand#new123' },
    });
    expect(signIn.status).toBe(200);
    await smtp.waitForMessage(customer.user.email);
  });

  it('turns two-factor off, and says when it is not on', async () => {
    const customer = await createUser(app.db, {
      twoFactorSecret: 'sealed-secret',
      twoFactorConfirmedAt: new Date(),
    });
    const body = { user_id: customer.id, password: TEST_PASSWORD };
    const off = await api(e.disableTwoFactor, { ...as, body });
    expect(off.data.user).toMatchObject({
      two_factor_authentication: false,
      two_factor_authentication_confirmed: false,
    });
    expect((await api(e.disableTwoFactor, { ...as, body })).status).toBe(409);
  });
});

describe('links and devices', () => {
  it('resends the activation link to an unverified account only', async () => {
    const unverified = await createUser(app.db, { emailVerifiedAt: null });
    const sent = await api(e.resendActivationLink, { ...as, body: { user_id: unverified.id } });
    expect(sent.status).toBe(200);
    await smtp.waitForMessage(unverified.email);
    const verified = await createUser(app.db);
    const refused = await api(e.resendActivationLink, { ...as, body: { user_id: verified.id } });
    expect(refused.status).toBe(409);
  });

  it('resends and cancels a pending e-mail change', async () => {
    const customer = await createUser(app.db, { emailTmp: 'pending@example.org' });
    const resent = await api(e.resendEmailChange, { ...as, body: { user_id: customer.id } });
    expect(resent.status).toBe(200);
    await smtp.waitForMessage('pending@example.org');
    const cancelled = await api(e.cancelEmailChange, { ...as, body: { user_id: customer.id } });
    expect(cancelled.data.user.email_tmp).toBeNull();
    expect((await api(e.cancelEmailChange, { ...as, body: { user_id: customer.id } })).status).toBe(
      409,
    );
    expect((await api(e.resendEmailChange, { ...as, body: { user_id: customer.id } })).status).toBe(
      409,
    );
  });

  it('lists a customer’s devices and signs one out; another customer’s device is not found', async () => {
    const customer = await signedInUser(app);
    const other = await signedInUser(app);
    const list = await api(e.devices, { ...as, query: { user_id: customer.user.id } });
    expect(list.data.items.map((device) => device.id)).toEqual([customer.sessionId]);
    const foreign = await api(e.logoutDevice, {
      ...as,
      body: { user_id: customer.user.id, id: other.sessionId },
    });
    expect(foreign.status).toBe(404);
    expect((await api(authEndpoints.getAuthUser, { cookie: other.cookie })).status).toBe(200);
    const done = await api(e.logoutDevice, {
      ...as,
      body: { user_id: customer.user.id, id: customer.sessionId },
    });
    expect(done.status).toBe(200);
    const left = await app.db.select().from(sessions).where(eq(sessions.userId, customer.user.id));
    expect(left).toEqual([]);
    expect(await audited(customer.user.id, 'customers.device_logged_out')).toMatchObject({});
  });
});

describe('guarding the way into an account', () => {
  it('asks for the admin’s password to change an e-mail address, not a name', async () => {
    const customer = await createUser(app.db);
    const body = { user_id: customer.id, name: 'Renamed', email: customer.email, country_id: null };
    expect((await api(e.update, { ...as, body })).status).toBe(200);
    const moved = { ...body, email: `${customer.username}@moved-example.org` };
    const missing = await api(e.update, { ...as, body: moved });
    expect(missing.body.errors_validation).toEqual({
      password: ['input_errors.field_is_required'],
    });
    const wrong = await api(e.update, { ...as, body: { ...moved, password: 'Wrong#pass123' } });
    expect(wrong.body.errors_validation).toEqual({ password: ['errors.password_incorrect'] });
    const [row] = await app.db.select().from(users).where(eq(users.id, customer.id));
    expect(row?.email).toBe(customer.email);
  });

  it('withdraws the links mailed to the old address when it changes', async () => {
    const customer = await createUser(app.db);
    const forgot = await api(authEndpoints.forgotPassword, { body: { email: customer.email } });
    expect(forgot.status).toBe(200);
    const link = (await smtp.waitForMessage(customer.email)).links.find((url) =>
      url.includes('challenge='),
    );
    const challenge = new URL(link ?? 'http://x/').searchParams.get('challenge') ?? '';
    expect(challenge).not.toBe('');
    const changed = await api(e.update, {
      ...as,
      body: {
        user_id: customer.id,
        name: null,
        email: `${customer.username}@new-example.org`,
        country_id: null,
        password: TEST_PASSWORD,
      },
    });
    expect(changed.status).toBe(200);
    const reset = await api(authEndpoints.resetPassword, {
      body: { challenge, password: 'Taken#over123', password_confirmation: 'Taken#over123' },
    });
    expect(reset.status).toBe(400);
  });

  it('refuses a country that does not exist under country_id', async () => {
    const customer = await createUser(app.db);
    for (const countryId of [999_999, 3_000_000_000]) {
      const answer = await api(e.update, {
        ...as,
        body: { user_id: customer.id, name: null, email: customer.email, country_id: countryId },
      });
      expect(answer.status, String(countryId)).toBe(422);
      expect(answer.body.errors_validation).toEqual({
        country_id: ['input_errors.field_is_invalid'],
      });
    }
  });

  it('asks for the admin’s password to make a staff account', async () => {
    const body = {
      name: 'Staff Person',
      email: 'staff.person@example.com',
      password: 'Fresh#pass123',
      password_confirmation: 'Fresh#pass123',
      role: 'ADMIN' as const,
    };
    const missing = await api(e.create, { ...as, body });
    expect(missing.body.errors_validation).toEqual({
      current_password: ['input_errors.field_is_required'],
    });
    const made = await api(e.create, { ...as, body: { ...body, current_password: TEST_PASSWORD } });
    expect(made.status).toBe(201);
    expect(made.data.user.role).toBe('ADMIN');
  });

  it('refuses what would lock the acting admin out: their own account is changed elsewhere', async () => {
    const own = { user_id: admin.user.id, password: TEST_PASSWORD };
    const answers = [
      await api(e.block, { ...as, body: { ...own, status: true } }),
      await api(e.delete, { ...as, body: own }),
      await api(e.disableTwoFactor, { ...as, body: own }),
      await api(e.update, {
        ...as,
        body: { ...own, name: 'Me', email: 'me@elsewhere.org', country_id: null },
      }),
      await api(e.updatePassword, {
        ...as,
        body: {
          user_id: admin.user.id,
          password: 'Brand#new123',
          password_confirmation: 'Brand#new123',
          current_password: TEST_PASSWORD,
        },
      }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(409);
      expect(answer.body.errors_info).toEqual(['errors.not_on_yourself']);
    }
  });

  it('lets only one of two admins blocking each other at once succeed', async () => {
    const first = await signedInUser(app, { role: 'ADMIN' });
    const second = await signedInUser(app, { role: 'ADMIN' });
    const block = (by: typeof first, target: typeof first) =>
      api(e.block, {
        cookie: by.cookie,
        body: { user_id: target.user.id, status: true, password: TEST_PASSWORD },
      });
    const answers = await Promise.all([block(first, second), block(second, first)]);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    const rows = await app.db
      .select({ blockedAt: users.blockedAt })
      .from(users)
      .where(inArray(users.id, [first.user.id, second.user.id]));
    expect(rows.filter((row) => row.blockedAt !== null)).toHaveLength(1);
  });
});
