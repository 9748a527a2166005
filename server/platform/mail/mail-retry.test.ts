import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { type MailOutboxRow, mailOutbox } from '../../db/schema/mail-outbox.ts';
import { createTestApp } from '../../test/test-app.ts';
import { startTestSmtp, type TestSmtp } from '../../test/test-smtp.ts';
import { until } from '../../test/wait-until.ts';
import { MAIL_RETRY_QUEUE, type MailRetryPolicy } from './mail-retry.ts';
import type { MailMessage } from './mailer.ts';

const APP_URL = 'https://vpn.example.test';
const MAIL_FROM = 'Shieldline VPN Test <mailer@example.test>';
// Four attempts in all (the request's, then the job's three), a second apart: what a test
// reads right after the request is the row before any retry.
const QUICK_RETRY: MailRetryPolicy = {
  firstDelaySeconds: 1,
  retryLimit: 2,
  retryDelaySeconds: 1,
  retryBackoff: false,
};
// The URL's query wins over the mailer's own timeouts: a stall is given up on after 1 s.
const QUICK_TIMEOUTS = 'connectionTimeout=1000&greetingTimeout=1000&socketTimeout=1000';

async function appWithSmtp(smtpUrl: string) {
  const { app } = await createTestApp(
    { SMTP_URL: `${smtpUrl}?${QUICK_TIMEOUTS}`, MAIL_FROM, APP_URL },
    undefined,
    { mail: { retry: QUICK_RETRY } },
  );
  return app;
}

const smtp = await startTestSmtp();
afterAll(() => smtp.close());
const app = await appWithSmtp(smtp.url);

beforeEach(() => smtp.clear());

const linkFor = (to: string) =>
  `${APP_URL}/en/password/reset?challenge=${encodeURIComponent(to)}.secret-token`;

const resetMail = (to: string): MailMessage => ({
  template: 'password_reset',
  locale: 'en',
  to,
  data: { name: 'Nina', link: linkFor(to), expiresInMinutes: 60 },
});

async function rowFor(db: typeof app.db, to: string): Promise<MailOutboxRow> {
  const rows = await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
  expect(rows).toHaveLength(1);
  return rows[0] as MailOutboxRow;
}

async function settled(db: typeof app.db, to: string): Promise<MailOutboxRow> {
  await until(
    async () => (await rowFor(db, to)).status !== 'retrying',
    `the mail to ${to} to be sent or failed`,
  );
  return rowFor(db, to);
}

const received = (server: TestSmtp, to: string) =>
  server.messages.filter((mail) => mail.envelope.to.includes(to));

/** The retry jobs ever queued for a row (pg-boss keeps done jobs for days). */
async function retryJobs(outboxId: number): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    app.db,
    sql`SELECT count(*)::int AS count FROM pgboss.job
      WHERE name = ${MAIL_RETRY_QUEUE} AND data->>'outboxId' = ${String(outboxId)}`,
  );
  return Number(row?.count ?? 0);
}

describe('mail delivery that fails for now', () => {
  it.each([421, 451])('retries after a %i and delivers exactly once', async (code) => {
    const to = `answer-${code}@example.test`;
    smtp.failNext({ reply: code, message: 'Try again later' });

    await app.mailer.send(resetMail(to));

    const held = await rowFor(app.db, to);
    expect(held.error).toContain(String(code));
    expect(held.messageId).toMatch(/^<\d+\.[0-9a-f]{24}@vpn\.example\.test>$/);
    const row = await settled(app.db, to);
    expect(row).toMatchObject({ status: 'sent', attempts: 2, sealedMessage: null, error: null });
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(row.messageId).toBe(held.messageId);
    await app.queue.drain();
    const [mail, ...more] = received(smtp, to);
    expect(more).toHaveLength(0);
    expect(mail?.parsed.messageId).toBe(row.messageId);
    expect(mail?.links).toContain(linkFor(to));
  });

  it('sends the same Message-ID again when the server hung up after taking the data', async () => {
    const to = 'dropped@example.test';
    smtp.failNext({ dropAfterData: true });

    await app.mailer.send(resetMail(to));

    const row = await settled(app.db, to);
    expect(row).toMatchObject({ status: 'sent', attempts: 2, sealedMessage: null });
    // The server got it twice; the one Message-ID lets it (or the reader's client) drop one.
    const copies = received(smtp, to);
    expect(copies).toHaveLength(2);
    expect(copies.map((mail) => mail.parsed.messageId)).toEqual([row.messageId, row.messageId]);
  });

  it('holds the mail for its job before the first attempt, so a process dying in it loses nothing', async () => {
    const to = 'dying@example.test';
    // A slow first attempt: while it runs, the row is what a killed process would leave.
    smtp.failNext({ silenceMs: 300 });
    const sending = app.mailer.send(resetMail(to));
    let during = await rowFor(app.db, to).catch(() => undefined);
    while (!during?.messageId) during = await rowFor(app.db, to).catch(() => undefined);
    expect(during).toMatchObject({ status: 'retrying', attempts: 1 });
    expect(during.sealedMessage).not.toBeNull();
    expect(await retryJobs(during.id)).toBe(1);
    await sending;
    // The attempt went through: the job, when it comes, finds nothing to do.
    expect(await rowFor(app.db, to)).toMatchObject({ status: 'sent', sealedMessage: null });
    await app.mailer.retry({ data: { outboxId: during.id }, retryCount: 0 });
    expect(received(smtp, to)).toHaveLength(1);
  });

  it('gives up on a server that stalls past the timeout, then delivers on the retry', async () => {
    const to = 'stalled@example.test';
    smtp.failNext({ silenceMs: 3_000 });
    const started = Date.now();

    await app.mailer.send(resetMail(to));

    expect(Date.now() - started).toBeLessThan(2_500);
    const held = await rowFor(app.db, to);
    expect(held.error).toMatch(/timeout|timed out/i);
    const row = await settled(app.db, to);
    expect(row).toMatchObject({ status: 'sent', attempts: 2, sealedMessage: null });
    expect(received(smtp, to)).toHaveLength(1);
  });

  it('keeps the message sealed while it waits, and drops it after the last attempt', async () => {
    const to = 'always-busy@example.test';
    smtp.failNext({ reply: 451 }, 4);

    await app.mailer.send(resetMail(to));

    const held = await rowFor(app.db, to);
    expect(held.status).toBe('retrying');
    const sealed = held.sealedMessage ?? '';
    expect(sealed).toMatch(/^v1\./);
    // Neither the link nor its token in any spelling: only the app key opens the copy.
    for (const row of [sealed, JSON.stringify(held)]) {
      expect(row).not.toContain('secret-token');
      expect(row).not.toContain(encodeURIComponent(to));
      expect(row).not.toContain('challenge');
    }
    expect(held).toMatchObject({ html: '', text: '' });
    expect(JSON.parse(app.mailBox.open(sealed))).toMatchObject({
      to,
      text: expect.stringContaining(linkFor(to)),
      headers: { 'Auto-Submitted': 'auto-generated' },
    });

    const row = await settled(app.db, to);
    expect(row).toMatchObject({ status: 'failed', attempts: 4, sealedMessage: null });
    expect(row.error).toMatch(/451/);
    expect(received(smtp, to)).toHaveLength(0);
  });

  it('counts a list mail on its way as not failed', async () => {
    const to = 'list-later@example.test';
    smtp.failNext({ reply: 451 });
    const status = await app.mailer.sendList({
      to,
      locale: 'en',
      name: 'Nina',
      listName: 'News',
      subject: 'Our news',
      body: 'Hello',
      oneClickUrl: `${APP_URL}/api/public/v1/unsubscribe/one-click`,
      unsubscribePageUrl: `${APP_URL}/en/unsubscribe`,
      settingsUrl: `${APP_URL}/en/account/notifications`,
      listId: `news.lists.vpn.example.test`,
    });
    expect(status).toBe('retrying');
    const row = await settled(app.db, to);
    expect(row.status).toBe('sent');
    const [mail] = received(smtp, to);
    const listId = mail?.parsed.headerLines.find((line) => line.key === 'list-id')?.line;
    expect(listId).toMatch(/news\.lists\.vpn\.example\.test/);
  });
});

describe('mail delivery that fails for good', () => {
  it('marks a 550 failed at once and never retries it', async () => {
    const to = 'no-such-user@example.test';
    smtp.failNext({ reply: 550, message: 'No such user here' });

    await app.mailer.send(resetMail(to));

    const row = await rowFor(app.db, to);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, sealedMessage: null });
    expect(row.error).toMatch(/550.*No such user/);
    // The job queued before the attempt (in case its process died) finds the row ended and
    // leaves it: no second attempt.
    expect(await retryJobs(row.id)).toBe(1);
    await app.mailer.retry({ data: { outboxId: row.id }, retryCount: 0 });
    expect((await rowFor(app.db, to)).attempts).toBe(1);
    expect(received(smtp, to)).toHaveLength(0);
  });
});

describe('one row, two workers', () => {
  it('sends once when two workers take the same row at the same time', async () => {
    const to = 'raced@example.test';
    // The first attempt fails; the next is slow, so the other worker arrives while it runs.
    smtp.failNext({ reply: 451 });
    smtp.failNext({ silenceMs: 400 });

    await app.mailer.send(resetMail(to));
    const { id } = await rowFor(app.db, to);
    const job = { data: { outboxId: id }, retryCount: 0 };
    // Before the queue's own job for the row, which then finds it sent. A worker that finds
    // the row taken (PostgreSQL; PGlite runs one transaction at a time) fails its job, which
    // looks again later.
    const runs = await Promise.allSettled([app.mailer.retry(job), app.mailer.retry(job)]);
    for (const run of runs) {
      if (run.status === 'rejected') expect(String(run.reason)).toMatch(/another worker/);
    }

    const row = await settled(app.db, to);
    await app.queue.drain();
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
    expect(received(smtp, to)).toHaveLength(1);
    expect(await retryJobs(id)).toBe(1);
  });
});

describe('a mail server that is down', () => {
  it('keeps the mail until the server listens again', async () => {
    const down = await startTestSmtp();
    const { port } = down;
    await down.close();
    const offline = await appWithSmtp(down.url);
    const to = 'server-down@example.test';

    await offline.mailer.send(resetMail(to));

    const held = await rowFor(offline.db, to);
    expect(held.status).toBe('retrying');
    expect(held.error).toMatch(/ECONNREFUSED|connect/i);
    const back = await startTestSmtp({ port });
    try {
      const row = await settled(offline.db, to);
      expect(row).toMatchObject({ status: 'sent', attempts: 2, sealedMessage: null });
      const [mail, ...more] = received(back, to);
      expect(more).toHaveLength(0);
      expect(mail?.parsed.messageId).toBe(row.messageId);
    } finally {
      await back.close();
    }
  });
});
