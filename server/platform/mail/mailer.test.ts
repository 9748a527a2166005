import { eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { LANGS } from '#shared/locales.ts';
import { testConfig } from '../../config.ts';
import { mailOutbox } from '../../db/schema/mail-outbox.ts';
import { TOKEN_TTL_MS } from '../../modules/identity/one-time-tokens.ts';
import { createTestApp } from '../../test/test-app.ts';
import { startTestSmtp } from '../../test/test-smtp.ts';
import type { TemplateData, TemplateName } from './mail-texts.ts';
import { Mailer, type MailLog, type MailMessage, OUTBOX_RETENTION_MS } from './mailer.ts';
import { MAIL_TEXTS, TEMPLATE_NAMES } from './render-mail.tsx';

const APP_URL = 'https://vpn.example.test';
const MAIL_FROM = 'Shieldline VPN Test <mailer@example.test>';

const smtp = await startTestSmtp({
  rejectRecipient: (address) =>
    address.startsWith('bounce') ? 'Requested action not taken: mailbox unavailable' : undefined,
});
afterAll(() => smtp.close());
const { app } = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM, APP_URL });

beforeEach(() => smtp.clear());

const linkFor = (template: TemplateName, to: string) =>
  `${APP_URL}/en/${template}?challenge=${encodeURIComponent(to)}`;

function dataFor(template: TemplateName, to: string): TemplateData[TemplateName] {
  const link = linkFor(template, to);
  const data: { [T in TemplateName]: TemplateData[T] } = {
    email_verify: { name: 'Nina', link },
    password_reset: { name: 'Nina', link, expiresInMinutes: 60 },
    password_set: { name: 'Nina', link },
    email_change: { name: 'Nina', link, newEmail: to },
    password_changed: { name: 'Nina' },
    billing_receipt: {
      name: 'Nina',
      planName: 'Premium',
      amount: '$59.99',
      invoiceNumber: 'SL-1',
      periodEnd: 'March 31, 2026',
      link,
    },
    billing_payment_failed: {
      name: 'Nina',
      planName: 'Premium',
      amount: '$59.99',
      reason: 'Card declined',
      retryOn: 'April 3, 2026',
      graceEndsOn: 'April 10, 2026',
      link,
    },
    billing_renewal_reminder: {
      name: 'Nina',
      planName: 'Premium',
      amount: '$59.99',
      renewsOn: 'April 3, 2026',
      link,
    },
    billing_canceled: { name: 'Nina', planName: 'Premium', endsOn: 'April 3, 2026', link },
    billing_refunded: { name: 'Nina', amount: '$59.99', invoiceNumber: 'SL-1', link },
    family_invite: { name: 'Nina', ownerName: 'Frances', expiresOn: 'April 7, 2026', link },
    data_export_ready: { name: 'Nina', expiresAt: 'April 7, 2026 at 10:30 UTC', link },
  };
  return data[template];
}

const messageFor = (template: TemplateName, locale: MailMessage['locale'], to: string) =>
  ({ template, locale, to, data: dataFor(template, to) }) as MailMessage;

/** What a mailer of our own shares with the app's. */
const mailerParts = () => ({ db: app.db, queue: app.queue, box: app.mailBox });

const outboxRows = (to: string) =>
  app.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));

/** A logger that keeps what the mailer wrote, to check what reaches the log. */
function recordingLog() {
  const lines: {
    level: 'info' | 'warn' | 'error';
    details: Record<string, unknown>;
    message: string;
  }[] = [];
  const log: MailLog = {
    info: (details, message) => lines.push({ level: 'info', details: { ...details }, message }),
    warn: (details, message) => lines.push({ level: 'warn', details: { ...details }, message }),
    error: (details, message) => lines.push({ level: 'error', details: { ...details }, message }),
  };
  return { log, lines };
}

describe('mailer with SMTP', () => {
  const cases = TEMPLATE_NAMES.flatMap((template) => LANGS.map((locale) => ({ template, locale })));

  it.each(cases)(
    'delivers $template in $locale and marks it sent',
    async ({ template, locale }) => {
      const to = `${template}.${locale}@example.test`;
      await app.mailer.send(messageFor(template, locale, to));

      const mail = await smtp.waitForMessage(to, { timeoutMs: 2_000 });
      const link =
        template === 'password_changed'
          ? `${APP_URL}/${locale}/password/forgot`
          : linkFor(template, to);
      expect(mail.text).toContain(link);
      expect(mail.links).toContain(link);
      expect(mail.html).toContain(link.replaceAll('&', '&amp;'));
      expect(mail.subject).toBe(
        MAIL_TEXTS[locale].templates[template](dataFor(template, to) as never).subject,
      );
      expect(mail.from).toEqual({ name: 'Shieldline VPN Test', address: 'mailer@example.test' });
      expect(mail.envelope.to).toEqual([to]);
      expect(mail.parsed.headers.get('auto-submitted')).toBe('auto-generated');

      const [row, ...others] = await outboxRows(to);
      expect(others).toHaveLength(0);
      expect(row).toMatchObject({ template, status: 'sent', error: null, subject: mail.subject });
      expect(row).toMatchObject({ attempts: 1, sealedMessage: null });
      expect(mail.parsed.messageId).toBe(row?.messageId);
      expect(row?.sentAt).toBeInstanceOf(Date);
      expect(row?.toAddress).toBe(to);
      // The server has the message; the log keeps no copy of its (secret) link.
      expect(row).toMatchObject({ html: '', text: '' });
    },
  );

  it('keeps no copy of a sent link anywhere in the row', async () => {
    const to = 'redacted@example.test';
    await app.mailer.send(messageFor('password_reset', 'en', to));
    const mail = await smtp.waitForMessage(to);
    const link = linkFor('password_reset', to);
    expect(mail.links).toContain(link);
    const rows = await outboxRows(to);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(encodeURIComponent(to));
    expect(rows[0]).toMatchObject({
      template: 'password_reset',
      subject: mail.subject,
      status: 'sent',
      html: '',
      text: '',
    });
    expect(rows[0]?.createdAt).toBeInstanceOf(Date);
  });

  it('keeps the delivery log of sent mail past the outbox retention', async () => {
    const to = 'old-sent@example.test';
    const [old] = await app.db
      .insert(mailOutbox)
      .values({
        template: 'email_verify',
        toAddress: to,
        subject: 'Confirm your e-mail address',
        html: '',
        text: '',
        status: 'sent',
        createdAt: new Date(Date.now() - OUTBOX_RETENTION_MS - 86_400_000),
      })
      .returning();
    await app.mailer.send(messageFor('password_changed', 'en', 'someone-else@example.test'));
    expect(
      await app.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.id, old?.id ?? 0)),
    ).toEqual([old]);
  });

  it('records a refused recipient as failed and resolves', async () => {
    const { log, lines } = recordingLog();
    const mailer = new Mailer({
      ...mailerParts(),
      config: testConfig({ SMTP_URL: smtp.url, MAIL_FROM, APP_URL }),
      log,
    });
    const to = 'bounce@example.test';

    await expect(mailer.send(messageFor('password_reset', 'fr', to))).resolves.toBeUndefined();
    mailer.close();

    expect(smtp.messages).toHaveLength(0);
    const [row] = await outboxRows(to);
    expect(row).toMatchObject({ template: 'password_reset', status: 'failed', sentAt: null });
    // A refusal for good (550) is not retried, so nothing is kept for a retry either.
    expect(row).toMatchObject({ attempts: 1, sealedMessage: null });
    expect(row?.error).toMatch(/550.*mailbox unavailable/i);
    // Undelivered, the link is still live: all the more reason not to keep it.
    expect(row).toMatchObject({ html: '', text: '' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'error',
      message: 'mail delivery failed',
      details: { template: 'password_reset', to, outboxId: expect.any(Number) },
    });
  });
});

describe('mailer without SMTP', () => {
  it('stores the message in the outbox and logs its text outside production', async () => {
    const { log, lines } = recordingLog();
    const mailer = new Mailer({ ...mailerParts(), config: testConfig({ APP_URL }), log });
    const to = 'offline@example.test';

    await mailer.send(messageFor('email_verify', 'nl', to));

    const [row] = await outboxRows(to);
    expect(row).toMatchObject({
      template: 'email_verify',
      status: 'outbox',
      error: null,
      sentAt: null,
      subject: 'Bevestig je e-mailadres',
    });
    expect(row?.html).toContain('lang="nl"');
    expect(smtp.messages).toHaveLength(0);
    expect(lines).toEqual([
      {
        level: 'info',
        message: 'mail stored in the outbox (no SMTP_URL)',
        details: {
          template: 'email_verify',
          to,
          outboxId: row?.id,
          link: linkFor('email_verify', to),
          text: row?.text,
        },
      },
    ]);
    expect(lines[0]?.details.text).toContain(linkFor('email_verify', to));
  });

  it('drops outbox rows older than the longest link lifetime on the next write', async () => {
    const { log } = recordingLog();
    const mailer = new Mailer({ ...mailerParts(), config: testConfig({ APP_URL }), log });
    const day = 86_400_000;
    const aged = async (to: string, ageMs: number) => {
      const [row] = await app.db
        .insert(mailOutbox)
        .values({
          template: 'password_set',
          toAddress: to,
          subject: 'Set your password',
          html: `<a href="${linkFor('password_set', to)}">set</a>`,
          text: linkFor('password_set', to),
          status: 'outbox',
          createdAt: new Date(Date.now() - ageMs),
        })
        .returning();
      return row?.id ?? 0;
    };
    const expired = await aged('aged-8d@example.test', OUTBOX_RETENTION_MS + day);
    const live = await aged('aged-6d@example.test', OUTBOX_RETENTION_MS - day);

    await mailer.send(messageFor('email_verify', 'en', 'fresh@example.test'));

    const left = await app.db.select({ id: mailOutbox.id }).from(mailOutbox);
    const ids = left.map((row) => row.id);
    expect(ids).not.toContain(expired);
    expect(ids).toContain(live);
    const [fresh] = await outboxRows('fresh@example.test');
    expect(fresh?.text).toContain(linkFor('email_verify', 'fresh@example.test'));
  });

  it('keeps messages at least as long as any link they carry lives', () => {
    expect(Math.max(...Object.values(TOKEN_TTL_MS))).toBeLessThanOrEqual(OUTBOX_RETENTION_MS);
  });

  it('keeps the secret link out of the production log', async () => {
    const { log, lines } = recordingLog();
    const config = { ...testConfig({ APP_URL }), env: 'production' as const };
    const mailer = new Mailer({ ...mailerParts(), config, log });
    const to = 'offline-production@example.test';

    await mailer.send(messageFor('password_reset', 'en', to));

    const [row] = await outboxRows(to);
    expect(row?.status).toBe('outbox');
    expect(lines).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toContain('challenge=');
  });
});

describe('test SMTP helper', () => {
  it('waits for a message still to come and times out with what it saw', async () => {
    const to = 'later@example.test';
    const waiting = smtp.waitForMessage(to, { timeoutMs: 2_000 });
    await app.mailer.send(messageFor('password_changed', 'es', to));
    expect((await waiting).subject).toBe('Se ha cambiado tu contraseña de Shieldline VPN');

    await expect(smtp.waitForMessage('never@example.test', { timeoutMs: 50 })).rejects.toThrow(
      /no mail to never@example.test within 50 ms \(received for: later@example.test\)/,
    );
  });

  it('picks the newest matching message to an address', async () => {
    const to = 'twice@example.test';
    await app.mailer.send(messageFor('email_verify', 'en', to));
    await app.mailer.send(messageFor('password_changed', 'en', to));
    expect((await smtp.waitForMessage(to.toUpperCase())).subject).toMatch(/password was changed/);
    const verify = await smtp.waitForMessage(to, {
      match: (mail) => mail.subject.includes('Confirm'),
    });
    expect(verify.subject).toBe('Confirm your e-mail address');
  });
});
