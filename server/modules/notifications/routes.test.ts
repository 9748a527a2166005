import { and, eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  empEndpoints as emp,
  unsubscribeLinkEndpoints as link,
  NOTIFICATION_MESSAGES as M,
  notificationEndpoints as own,
} from '#shared/contracts/notifications.ts';
import {
  auditLog,
  notificationLists,
  notificationSends,
  notificationSubscriptions,
} from '../../db/schema/index.ts';
import { endpointClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser, type TestSession } from '../../test/test-sessions.ts';
import { startTestSmtp } from '../../test/test-smtp.ts';
import { until } from '../../test/wait-until.ts';
import { DEFAULT_LISTS } from './default-lists.ts';
import { LIST_SEND_QUEUE } from './list-mailing.ts';

// §7 /notifications/* and /emp through the real routes and database, list mails through a
// real SMTP server, and the RFC 8058 one-click unsubscribe as a mail app sends it.
const APP_URL = 'https://vpn.example.test';
const smtp = await startTestSmtp();
afterAll(() => smtp.close());
const { app } = await createTestApp({ SMTP_URL: smtp.url, APP_URL });
const api = endpointClient(app);
beforeEach(() => smtp.clear());

const [NEWS, OFFERS, SECURITY, STATUS, BETA] = DEFAULT_LISTS.map((list) => list.uuid) as [
  string,
  string,
  string,
  string,
  string,
];
const admin = await signedInUser(app, { role: 'ADMIN' });
const author = await signedInUser(app, { role: 'AUTHOR' });
const asAdmin = { cookie: admin.cookie };

async function listId(uuid: string): Promise<number> {
  const [list] = await app.db
    .select()
    .from(notificationLists)
    .where(eq(notificationLists.uuid, uuid));
  if (!list) throw new Error(`no list ${uuid}`);
  return list.id;
}

/** Whose own-account calls: customers on the account base, staff on the dashboard base. */
const mine = <K extends keyof typeof own>(name: K, who: TestSession) =>
  who.user.role === 'USER' ? own[name].account : own[name].dashboard;

async function subscribe(who: TestSession, listUuid: string) {
  const answer = await api(mine('subscribe', who), {
    cookie: who.cookie,
    body: { listUuid },
  } as never);
  expect(answer.status, answer.text).toBe(200);
  return (answer.data as { subscription: { subscriberUuid: string } }).subscription;
}

describe('own subscriptions', () => {
  it('offers customers the visible lists, staff the hidden one too', async () => {
    const customer = await signedInUser(app);
    const lists = await api(own.lists.account, { cookie: customer.cookie });
    expect(lists.status).toBe(200);
    expect(lists.data.items.map((list) => list.listUuid)).toEqual([NEWS, OFFERS, SECURITY, STATUS]);
    expect(lists.data.controls).toMatchObject({ page: 1, total: 4 });
    const staff = await api(own.lists.dashboard, { cookie: author.cookie });
    expect(staff.data.items.map((list) => list.listUuid)).toContain(BETA);
  });

  it('subscribes once however often asked, lists it, and unsubscribes', async () => {
    const customer = await signedInUser(app);
    const first = await subscribe(customer, NEWS);
    const again = await subscribe(customer, NEWS);
    expect(again.subscriberUuid).toBe(first.subscriberUuid);
    const listed = await api(own.subscriptions.account, { cookie: customer.cookie });
    expect(listed.data.items).toEqual([
      expect.objectContaining({
        subscriberUuid: first.subscriberUuid,
        listUuid: NEWS,
        name: 'Product news',
      }),
    ]);
    const gone = await api(own.unsubscribe.account, {
      cookie: customer.cookie,
      body: { subscriberUuid: first.subscriberUuid },
    });
    expect(gone.status).toBe(200);
    expect((await api(own.subscriptions.account, { cookie: customer.cookie })).data.items).toEqual(
      [],
    );
  });

  it('never lets one person end another person’s subscription', async () => {
    const owner = await signedInUser(app);
    const other = await signedInUser(app);
    const { subscriberUuid } = await subscribe(owner, SECURITY);
    const answer = await api(own.unsubscribe.account, {
      cookie: other.cookie,
      body: { subscriberUuid },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors_validation).toEqual({ subscriberUuid: [M.subscriptionNotFound] });
    const kept = await app.db
      .select()
      .from(notificationSubscriptions)
      .where(eq(notificationSubscriptions.uuid, subscriberUuid));
    expect(kept).toHaveLength(1);
  });

  it('refuses customers a hidden list as if it did not exist; staff may join it', async () => {
    const customer = await signedInUser(app);
    const refused = await api(own.subscribe.account, {
      cookie: customer.cookie,
      body: { listUuid: BETA },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors_validation).toEqual({ listUuid: [M.listNotFound] });
    const unknown = await api(own.subscribe.account, {
      cookie: customer.cookie,
      body: { listUuid: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.body.errors_validation).toEqual({ listUuid: [M.listNotFound] });
    await subscribe(author, BETA);
  });

  it('keeps showing a list hidden after one subscribed, so it can still be left', async () => {
    const customer = await signedInUser(app);
    await subscribe(customer, STATUS);
    const hide = await api(emp.update, {
      ...asAdmin,
      body: {
        listUuid: STATUS,
        name: 'Service status',
        description: 'd',
        visible: false,
        push: true,
      },
    });
    expect(hide.status).toBe(200);
    const lists = await api(own.lists.account, { cookie: customer.cookie });
    expect(lists.data.items.map((list) => list.listUuid)).toContain(STATUS);
    const stranger = await signedInUser(app);
    const theirs = await api(own.lists.account, { cookie: stranger.cookie });
    expect(theirs.data.items.map((list) => list.listUuid)).not.toContain(STATUS);
    await api(emp.update, {
      ...asAdmin,
      body: {
        listUuid: STATUS,
        name: 'Service status',
        description: DEFAULT_LISTS[3].description,
        visible: true,
        push: true,
      },
    });
  });

  it('unsubscribes from everything at once', async () => {
    const customer = await signedInUser(app);
    await subscribe(customer, NEWS);
    await subscribe(customer, OFFERS);
    const answer = await api(own.unsubscribeAll.account, { cookie: customer.cookie });
    expect(answer.data).toEqual({ success: true, removed: 2 });
    expect(
      (await api(own.subscriptions.account, { cookie: customer.cookie })).data.controls.total,
    ).toBe(0);
  });

  it('refuses bad input under its field, and visitors', async () => {
    const customer = await signedInUser(app);
    const bad = await api(own.subscribe.account, {
      cookie: customer.cookie,
      body: { listUuid: 'nope' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors_validation).toEqual({ listUuid: ['input_errors.field_is_invalid'] });
    expect((await api(own.lists.account)).status).toBe(401);
    expect((await api(own.lists.dashboard, { cookie: customer.cookie })).status).toBe(403);
  });
});

describe('staff: /emp', () => {
  it('is the admin’s alone', async () => {
    const customer = await signedInUser(app);
    expect((await api(emp.list, asAdmin)).status).toBe(200);
    expect((await api(emp.list, { cookie: author.cookie })).status).toBe(403);
    expect((await api(emp.list, { cookie: customer.cookie })).status).toBe(403);
    expect((await api(emp.list)).status).toBe(401);
    const body = { listUuid: NEWS, subject: 'Hi', body: 'Hello' };
    expect((await api(emp.send, { cookie: author.cookie, body })).status).toBe(403);
    expect((await api(emp.sends, { cookie: customer.cookie })).status).toBe(403);
  });

  it('lists with subscriber counts, filters, and the send rate in controls', async () => {
    const customer = await signedInUser(app);
    await subscribe(customer, OFFERS);
    const all = await api(emp.list, asAdmin);
    expect(all.data.controls).toMatchObject({ page: 1, total: 5, send_rate_per_second: 10 });
    const offers = all.data.items.find((list) => list.listUuid === OFFERS);
    expect(offers?.subscribers_count).toBeGreaterThanOrEqual(1);
    const hidden = await api(emp.list, { ...asAdmin, query: { visible: 'false' } });
    expect(hidden.data.items.map((list) => list.listUuid)).toEqual([BETA]);
    const found = await api(emp.list, { ...asAdmin, query: { search: 'outage' } });
    expect(found.data.items.map((list) => list.listUuid)).toEqual([STATUS]);
  });

  it('updates a list, audited with what changed', async () => {
    const answer = await api(emp.update, {
      ...asAdmin,
      body: {
        listUuid: OFFERS,
        name: '  Deals  ',
        description: 'Coupons',
        visible: true,
        push: true,
      },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.data.list).toMatchObject({ name: 'Deals', description: 'Coupons', push: true });
    const [row] = await app.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'notifications.list_updated'),
          eq(auditLog.subjectId, String(await listId(OFFERS))),
        ),
      );
    expect(row?.data).toMatchObject({ after: { name: 'Deals', push: true } });
  });

  it.each([
    [{ name: '  ' }, 'name', 'input_errors.field_is_required'],
    [{ name: 'x'.repeat(121) }, 'name', 'input_errors.field_is_too_long'],
    [{ visible: 'yes' }, 'visible', 'input_errors.field_is_invalid'],
    [{ listUuid: '00000000-0000-4000-8000-000000000000' }, 'listUuid', M.listNotFound],
  ] as const)('refuses the update %j under its field', async (change, field, message) => {
    const answer = await api(emp.update, {
      ...asAdmin,
      body: {
        listUuid: NEWS,
        name: 'Product news',
        description: '',
        visible: true,
        push: false,
        ...change,
      } as never,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors_validation).toMatchObject({ [field]: [message] });
  });

  it('stops a send not yet out: audited, never mailed, and only once', async () => {
    const reader = await signedInUser(app);
    await subscribe(reader, OFFERS);
    const [send] = await app.db
      .insert(notificationSends)
      .values({ listId: await listId(OFFERS), subject: 'Sale', body: 'Half off.', total: 1 })
      .returning();
    const body = { send_id: send?.id ?? 0 };
    expect((await api(emp.cancelSend, { cookie: author.cookie, body })).status).toBe(403);
    const stopped = await api(emp.cancelSend, { ...asAdmin, body });
    expect(stopped.status, stopped.text).toBe(200);
    expect(stopped.data.send).toMatchObject({ status: 'canceled', sent: 0, subject: 'Sale' });
    expect(stopped.data.send.finished_at).not.toBeNull();
    const [audit] = await app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'notifications.send_canceled'));
    expect(audit).toMatchObject({ actorId: admin.user.id, data: { send_id: send?.id } });
    const again = await api(emp.cancelSend, { ...asAdmin, body });
    expect(again.status).toBe(409);
    expect(again.body.errors_info).toEqual([M.sendFinished]);
    const unknown = await api(emp.cancelSend, { ...asAdmin, body: { send_id: 2_000_000_000 } });
    expect(unknown.status).toBe(404);
    // Its job, run anyway (queued before the stop), sends nothing and leaves it stopped.
    await app.queue.send(LIST_SEND_QUEUE, { sendId: send?.id });
    await app.queue.drain();
    expect(smtp.messages.filter((m) => m.envelope.to.includes(reader.user.email))).toEqual([]);
    const [after] = await app.db
      .select()
      .from(notificationSends)
      .where(eq(notificationSends.id, send?.id ?? 0));
    expect(after?.status).toBe('canceled');
  });

  it('refuses a send to a list nobody can receive', async () => {
    const blocked = await signedInUser(app, { blockedAt: new Date() });
    await app.db
      .delete(notificationSubscriptions)
      .where(eq(notificationSubscriptions.listId, await listId(BETA)));
    await app.db
      .insert(notificationSubscriptions)
      .values({ listId: await listId(BETA), userId: blocked.user.id });
    const answer = await api(emp.send, {
      ...asAdmin,
      body: { listUuid: BETA, subject: 'S', body: 'B' },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors_validation).toEqual({ listUuid: [M.noSubscribers] });
  });
});

describe('a message to a list', () => {
  it('reaches each subscriber once with the one-click headers, and the link unsubscribes without a session', async () => {
    const readers = [await signedInUser(app), await signedInUser(app, { locale: 'fr' })];
    const uuids = [];
    for (const reader of readers) uuids.push((await subscribe(reader, SECURITY)).subscriberUuid);
    const body =
      '## Patch now\n\nUpdate the app **today**.\n\n<script>alert(1)</script>\n\n- one\n- [help](https://example.com/help)';
    const queued = await api(emp.send, {
      ...asAdmin,
      body: { listUuid: SECURITY, subject: 'Update your apps', body },
    });
    expect(queued.status, queued.text).toBe(201);
    expect(queued.data.send).toMatchObject({
      status: 'queued',
      list_name: 'Security notices',
      sent: 0,
    });
    const total = queued.data.send.total;
    const sendId = queued.data.send.send_id;
    await until(async () => {
      const page = await api(emp.sends, { ...asAdmin, query: { listUuid: SECURITY } });
      return page.data.items.find((send) => send.send_id === sendId)?.status === 'done';
    }, 'the send to finish');
    const [done] = await app.db
      .select()
      .from(notificationSends)
      .where(eq(notificationSends.id, sendId));
    expect(done).toMatchObject({ sent: total, failed: 0 });
    expect(done?.finishedAt).toBeInstanceOf(Date);

    const [first, second] = readers;
    const mail = await smtp.waitForMessage(first?.user.email ?? '');
    const oneClick = `${APP_URL}/api/public/v1/notifications/one-click/${uuids[0]}`;
    expect(mail.subject).toBe('Update your apps');
    const header = (name: string) =>
      mail.parsed.headerLines.find((line) => line.key === name)?.line.replace(/^[^:]+:\s*/, '');
    expect(header('list-unsubscribe')).toBe(`<${oneClick}>`);
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.html).toContain('<strong>today</strong>');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.html).toContain('href="https://example.com/help"');
    const page = `${APP_URL}/en/notifications/unsubscribe/${uuids[0]}`;
    expect(mail.links).toContain(page);
    const french = await smtp.waitForMessage(second?.user.email ?? '');
    expect(french.text).toContain('Se désabonner de cette liste');
    expect(
      smtp.messages.filter((m) => m.envelope.to.includes(first?.user.email ?? '')),
    ).toHaveLength(1);

    // The mail app's POST: a form, no cookie, no CSRF header.
    const path = new URL(oneClick).pathname;
    const posted = await app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(posted.statusCode, posted.body).toBe(200);
    expect(posted.json()).toEqual({ success: true });
    const left = await app.db
      .select()
      .from(notificationSubscriptions)
      .where(eq(notificationSubscriptions.uuid, uuids[0] ?? ''));
    expect(left).toHaveLength(0);
    // Used again, or never known: the same calm answer.
    const again = await app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(again.statusCode).toBe(200);
  });

  it('opens the page on a GET and changes nothing; the page reads the list name', async () => {
    const reader = await signedInUser(app);
    const { subscriberUuid } = await subscribe(reader, NEWS);
    const opened = await app.inject({
      method: 'GET',
      url: `/api/public/v1/notifications/one-click/${subscriberUuid}`,
    });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(`/en/notifications/unsubscribe/${subscriberUuid}`);
    const view = await api(link.view, { params: { subscriberUuid } });
    expect(view.data).toEqual({ list_name: 'Product news' });
    const still = await app.db
      .select()
      .from(notificationSubscriptions)
      .where(eq(notificationSubscriptions.uuid, subscriberUuid));
    expect(still).toHaveLength(1);
    // The page's button: JSON, as the app posts it.
    const button = await api(link.oneClick, { params: { subscriberUuid } });
    expect(button.status).toBe(200);
    expect((await api(link.view, { params: { subscriberUuid } })).data).toEqual({
      list_name: null,
    });
    expect((await api(link.view, { params: { subscriberUuid: 'garbage' } })).data).toEqual({
      list_name: null,
    });
  });

  it('limits guessing of links per address', async () => {
    const ip = '203.0.113.77';
    let limited = 0;
    for (let i = 0; i < 35; i += 1) {
      const answer = await api(link.view, {
        ip,
        params: { subscriberUuid: '00000000-0000-4000-8000-000000000000' },
      });
      if (answer.status === 429) limited += 1;
    }
    expect(limited).toBeGreaterThan(0);
  });

  it('refuses a second send to a list while one is under way', async () => {
    const reader = await signedInUser(app);
    await subscribe(reader, STATUS);
    const body = { listUuid: STATUS, subject: 'Maintenance', body: 'Tonight.' };
    const [one, two] = await Promise.all([
      api(emp.send, { ...asAdmin, body }),
      api(emp.send, { ...asAdmin, body }),
    ]);
    const statuses = [one.status, two.status].sort();
    expect(statuses).toEqual([201, 409]);
    const audits = await app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'notifications.send_queued'));
    expect(audits.length).toBeGreaterThanOrEqual(1);
    await app.queue.drain();
  });
});
