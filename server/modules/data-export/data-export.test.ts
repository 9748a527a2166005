import type { AddressInfo } from 'node:net';
import { and, desc, eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { CHALLENGE_PARAM, decodeChallenge } from '#shared/challenge.ts';
import {
  DATA_EXPORT_FILE_NAME,
  DATA_EXPORT_MESSAGES,
  dataExportEndpoints as e,
} from '#shared/contracts/data-export.ts';
import { auditLog, dataExports, mailOutbox, type UserRow, users } from '../../db/schema/index.ts';
import { seedDemoData } from '../../db/seed.ts';
import { endpointClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { sessionFor, signedInUser, type TestSession } from '../../test/test-sessions.ts';
import { until } from '../../test/wait-until.ts';
import { seedDemoBilling } from '../billing/demo-billing.ts';
import { seedDemoFamily } from '../family-sharing/demo-family.ts';
import { seedDemoNotifications } from '../notifications/demo-notifications.ts';
import { seedDemoReferrals } from '../referral/demo-referrals.ts';
import { seedDemoFleet } from '../vpn/demo-fleet.ts';
import { startDownload } from './data-export-service.ts';
import { sweepDataExports } from './data-export-sweep.ts';

// Issue 25: request → durable job → mail → download once, on the demo customer, whose
// account has something in every part of the export. Downloads go over real HTTP, where the
// answer streams and its end decides whether the link is spent.
const { app } = await createTestApp();
const call = endpointClient(app);
await app.listen({ port: 0, host: '127.0.0.1' });
const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

await seedDemoData(app.db);
await seedDemoBilling(app);
await seedDemoFleet(app);
await seedDemoReferrals(app);
await seedDemoFamily(app);
await seedDemoNotifications(app.db);
await app.queue.drain();

const [demoCustomer] = await app.db
  .select()
  .from(users)
  .where(eq(users.email, 'customer@example.com'));
if (!demoCustomer) throw new Error('no demo customer');

async function latestRow(userId: number) {
  const [row] = await app.db
    .select()
    .from(dataExports)
    .where(eq(dataExports.userId, userId))
    .orderBy(desc(dataExports.id))
    .limit(1);
  if (!row) throw new Error(`no export of ${userId}`);
  return row;
}

/** The token of the newest export mail to `user`, read from the outbox as a person would. */
async function mailedToken(user: UserRow): Promise<{ link: string; token: string }> {
  const [mail] = await app.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, user.email), eq(mailOutbox.template, 'data_export_ready')))
    .orderBy(desc(mailOutbox.id))
    .limit(1);
  const link = mail?.text.match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error(`no export mail to ${user.email}`);
  const token = decodeChallenge(new URL(link).searchParams.get(CHALLENGE_PARAM) ?? '')?.token;
  if (!token) throw new Error(`no token in ${link}`);
  return { link, token };
}

/** The download as the browser makes it, with the answer's bytes kept whole. */
async function download(session: TestSession | null, token: string) {
  const response = await fetch(`${origin}${e.download.url}`, {
    method: 'POST',
    headers: {
      ...(session ? { cookie: session.cookie } : {}),
      'x-requested-with': 'fetch',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ token }),
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return {
    statusCode: response.status,
    headers: Object.fromEntries(response.headers),
    bytes,
    json: () => JSON.parse(Buffer.from(bytes).toString('utf8')),
  };
}

async function readyExport(session: TestSession) {
  const asked = await call(e.request, { cookie: session.cookie });
  expect(asked.status).toBe(200);
  await app.queue.drain();
  return mailedToken(session.user);
}

const auditActions = async (userId: number) =>
  (
    await app.db
      .select({ action: auditLog.action, actorId: auditLog.actorId })
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, 'user'), eq(auditLog.subjectId, String(userId))))
  ).map((row) => row.action);

describe('a customer’s data export', () => {
  it('is built by a job, mailed, and downloads once as a ZIP of every part', async () => {
    const customer = await sessionFor(app, demoCustomer);
    const other = await signedInUser(app);

    const before = await call(e.status, { cookie: customer.cookie });
    expect(before.data).toEqual({ export: null, next_request_at: null });

    const asked = await call(e.request, { cookie: customer.cookie });
    expect(asked.status).toBe(200);
    expect(asked.data.export?.state).toBe('pending');
    expect(asked.data.next_request_at).not.toBeNull();
    // One export in progress at a time.
    const again = await call(e.request, { cookie: customer.cookie });
    expect(again.status).toBe(409);
    expect(again.body.errors_info).toEqual([DATA_EXPORT_MESSAGES.inProgress]);

    await app.queue.drain();
    const ready = await call(e.status, { cookie: customer.cookie });
    expect(ready.data.export?.state).toBe('ready');
    const expiresIn = Date.parse(ready.data.export?.expires_at ?? '') - Date.now();
    expect(expiresIn).toBeGreaterThan(23.9 * 3_600_000);
    expect(expiresIn).toBeLessThanOrEqual(24 * 3_600_000);

    const { link, token } = await mailedToken(demoCustomer);
    expect(link).toMatch(/\/en\/account\/data-export\?challenge=/);
    const stored = await latestRow(demoCustomer.id);
    // Only the token's hash is kept; the raw token is in the mail alone.
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token);

    // Another person's session cannot spend it.
    const foreign = await download(other, token);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().errors_info).toEqual([DATA_EXPORT_MESSAGES.linkInvalid]);

    const got = await download(customer, token);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/zip');
    expect(got.headers['content-disposition']).toBe(
      `attachment; filename="${DATA_EXPORT_FILE_NAME}"`,
    );
    expect(got.headers['cache-control']).toBe('private, no-store');
    expect(got.headers['content-length']).toBe(String(got.bytes.length));
    const files = unzipSync(got.bytes);
    const read = (name: string) => {
      const file = files[name];
      if (!file) throw new Error(`${name} is not in the export: ${Object.keys(files).join(', ')}`);
      return JSON.parse(Buffer.from(file).toString('utf8'));
    };

    const profile = read('profile.json');
    expect(profile.account).toMatchObject({
      email: 'customer@example.com',
      name: 'Casey Customer',
    });
    expect(profile.account).not.toHaveProperty('password_hash');
    expect(read('sessions.json').sessions.length).toBeGreaterThanOrEqual(1);
    const vpn = read('vpn.json');
    expect(vpn.devices.map((device: { name: string }) => device.name)).toEqual(['Laptop', 'Phone']);
    expect(vpn.usage.sent_bytes).toBeGreaterThan(0);
    expect(vpn.access.length).toBeGreaterThanOrEqual(1);
    const billing = read('subscriptions.json');
    expect(billing.subscriptions.length).toBeGreaterThanOrEqual(1);
    expect(billing.subscriptions[0].plan).toBeTruthy();
    expect(billing.payment_methods.map((card: { last4: string }) => card.last4)).toContain('4242');
    const { invoices } = read('invoices.json');
    expect(invoices.length).toBeGreaterThanOrEqual(1);
    for (const invoice of invoices) {
      const pdf = files[invoice.pdf];
      expect(pdf, invoice.pdf).toBeDefined();
      expect(
        Buffer.from(pdf ?? [])
          .subarray(0, 4)
          .toString('latin1'),
      ).toBe('%PDF');
    }
    const referrals = read('referrals.json');
    expect(referrals.code).toBeTruthy();
    expect(referrals.friends_referred).toHaveLength(3);
    expect(JSON.stringify(referrals)).not.toContain('@example.org');
    const family = read('family.json');
    expect(family.role).toBe('invitee');
    expect(family.invites.length).toBe(1);
    expect(read('notifications.json').subscribed_lists.length).toBeGreaterThanOrEqual(1);
    const audit = read('audit-log.json');
    expect(audit.entries.map((entry: { action: string }) => entry.action)).toContain(
      'account.data_export_requested',
    );
    expect(read('manifest.json').files).toEqual(
      expect.arrayContaining(['profile.json', 'invoices.json', invoices[0].pdf]),
    );
    // Nothing secret of the account travels.
    const everything = Object.values(files)
      .map((bytes) => Buffer.from(bytes).toString('latin1'))
      .join('');
    expect(everything).not.toContain(stored.tokenHash ?? '');
    expect(everything).not.toContain('$argon2');

    const after = await call(e.status, { cookie: customer.cookie });
    expect(after.data.export?.state).toBe('downloaded');
    expect(await auditActions(demoCustomer.id)).toEqual(
      expect.arrayContaining(['account.data_export_requested', 'account.data_export_downloaded']),
    );
    // The file is gone once downloaded; the link does not work twice.
    await until(async () => (await latestRow(demoCustomer.id)).fileKey === null, 'the file gone');
    const used = await latestRow(demoCustomer.id);
    expect(await app.storage.getStream(stored.fileKey ?? '')).toBeUndefined();
    const second = await download(customer, token);
    expect(second.statusCode).toBe(404);
    expect(second.json().errors_info).toEqual([DATA_EXPORT_MESSAGES.linkUsed]);

    // A new one is taken a day after the last.
    const soon = await call(e.request, { cookie: customer.cookie });
    expect(soon.status).toBe(429);
    expect(soon.body.errors_info).toEqual([DATA_EXPORT_MESSAGES.tooSoon]);
    expect(Number(soon.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    await app.db
      .update(dataExports)
      .set({ requestedAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(dataExports.id, used.id));
    const nextDay = await call(e.request, { cookie: customer.cookie });
    expect(nextDay.status).toBe(200);
    await app.queue.drain();
  });

  it('gives the link back when a download is cut short', async () => {
    const person = await signedInUser(app);
    const { token } = await readyExport(person);
    const request = { ip: '192.0.2.1', headers: {} } as Parameters<typeof startDownload>[1];
    const cut = await startDownload(app, request, person.user, token);
    expect((await latestRow(person.user.id)).state).toBe('downloaded');
    cut.stream.destroy();
    await cut.settle(false);
    expect((await latestRow(person.user.id)).state).toBe('ready');
    expect((await download(person, token)).statusCode).toBe(200);
  });

  it('refuses an expired link, and the sweep removes its file', async () => {
    const person = await signedInUser(app);
    const { token } = await readyExport(person);
    const row = await latestRow(person.user.id);
    expect(row.fileKey).not.toBeNull();
    expect(await app.storage.getStream(row.fileKey ?? '')).toBeDefined();
    await app.db
      .update(dataExports)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(dataExports.id, row.id));

    const status = await call(e.status, { cookie: person.cookie });
    expect(status.data.export?.state).toBe('expired');
    const late = await download(person, token);
    expect(late.statusCode).toBe(404);
    expect(late.json().errors_info).toEqual([DATA_EXPORT_MESSAGES.linkExpired]);

    expect(await sweepDataExports(app)).toBeGreaterThanOrEqual(1);
    const swept = await latestRow(person.user.id);
    expect(swept).toMatchObject({ state: 'expired', fileKey: null });
    expect(await app.storage.getStream(row.fileKey ?? '')).toBeUndefined();
  });

  it('fails a build that never finished, and lets the person ask again at once', async () => {
    const person = await signedInUser(app);
    await app.db
      .insert(dataExports)
      .values({ userId: person.user.id, requestedAt: new Date(Date.now() - 2 * 3_600_000) });
    const stuck = await call(e.request, { cookie: person.cookie });
    expect(stuck.status).toBe(409);

    await sweepDataExports(app);
    const failed = await call(e.status, { cookie: person.cookie });
    expect(failed.data).toEqual({
      export: expect.objectContaining({ state: 'failed' }),
      next_request_at: null,
    });
    const retried = await call(e.request, { cookie: person.cookie });
    expect(retried.status).toBe(200);
    await app.queue.drain();
    expect((await latestRow(person.user.id)).state).toBe('ready');
  });

  it('is asked for by an active account only; an export already made still downloads', async () => {
    const person = await signedInUser(app);
    const { token } = await readyExport(person);
    await app.db
      .update(users)
      .set({ deleteAt: new Date(Date.now() + 30 * 86_400_000) })
      .where(eq(users.id, person.user.id));
    const refused = await call(e.request, { cookie: person.cookie });
    expect(refused.status).toBe(403);
    expect((await download(person, token)).statusCode).toBe(200);
    // Not signed in, nothing at all.
    expect((await download(null, token)).statusCode).toBe(401);
  });

  it('refuses a malformed token as an invalid link', async () => {
    const person = await signedInUser(app);
    const answer = await download(person, 'not-a-token');
    expect(answer.statusCode).toBe(422);
    expect(JSON.stringify(answer.json())).toContain(DATA_EXPORT_MESSAGES.linkInvalid);
  });
});
