import { eq, lt } from 'drizzle-orm';
import { createTransport } from 'nodemailer';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema/mail-outbox.ts';
import { type ListMailMessage, renderListMail } from './list-mail.tsx';
import { type MailMessage, type RenderedMail, renderMail } from './render-mail.tsx';

export type { MailMessage, TemplateData, TemplateName } from './render-mail.tsx';

export type MailStatus = 'outbox' | 'sent' | 'failed';

/** The part of the app's logger the mailer writes to (pino's signature). */
export interface MailLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface MailerOptions {
  db: Database;
  config: Pick<Config, 'env' | 'appUrl' | 'smtpUrl' | 'mailFrom'>;
  log: MailLog;
}

// The SMTP attempt runs inside the HTTP request that asked for the mail, so it must give
// up long before a browser or proxy would (nodemailer waits minutes by default). Values
// given in SMTP_URL's query (`?socketTimeout=…`, also `?pool=true`) take precedence.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };
const ERROR_MAX_LENGTH = 2_000;

/**
 * How long the outbox keeps a message it is the only copy of (no SMTP_URL): the longest life
 * of a link a message carries (password set, 7 days; auth/one-time-tokens.ts). Older rows
 * hold nothing anyone can still use.
 */
export const OUTBOX_RETENTION_MS = 7 * 24 * 3_600_000;

/**
 * Renders and sends the product's e-mail, recording each message in `mail_outbox`.
 *
 * With SMTP_URL the row is a delivery log: recipient, template, subject, status ('outbox'
 * while being handed over, then 'sent', or 'failed' with the server's answer) and times,
 * but never the bodies. Their links carry live one-time tokens, and a copy in the database
 * would let anyone who reads it (a backup, a replica, a support tool) reset a password;
 * the mail server has the message, the user can ask for a new one. A failed delivery is
 * logged and does not throw: the action that triggered it (a sign-up, a reset request) has
 * happened, the row shows staff what went wrong.
 *
 * Without SMTP_URL (offline development, the embedded default) the outbox is where mail
 * goes, so it keeps the bodies, and each write drops the rows older than
 * OUTBOX_RETENTION_MS. Only a database failure, or a bug such as a link that is not
 * http(s), rejects.
 */
export class Mailer {
  readonly #db: Database;
  readonly #config: MailerOptions['config'];
  readonly #log: MailLog;
  readonly #transport: ReturnType<typeof createTransport> | undefined;

  constructor({ db, config, log }: MailerOptions) {
    this.#db = db;
    this.#config = config;
    this.#log = log;
    this.#transport = config.smtpUrl
      ? createTransport({ ...SMTP_TIMEOUTS, url: config.smtpUrl }, { from: config.mailFrom })
      : undefined;
  }

  async send(message: MailMessage): Promise<void> {
    const { template, to } = message;
    await this.deliver(template, to, renderMail(message, { appUrl: this.#config.appUrl }));
  }

  /**
   * A message staff send to a notification list, with its List-Unsubscribe headers. Answers
   * how it went ('failed' is logged, not thrown), so a mailing can count its failures.
   */
  async sendList(message: ListMailMessage): Promise<MailStatus> {
    const { headers, ...mail } = renderListMail(message);
    return this.deliver('notification_list', message.to, mail, headers);
  }

  private async deliver(
    template: string,
    to: string,
    mail: RenderedMail,
    headers: Record<string, string> = {},
  ): Promise<MailStatus> {
    const kept = this.#transport ? { html: '', text: '' } : { html: mail.html, text: mail.text };
    const [row] = await this.#db
      .insert(mailOutbox)
      .values({
        template,
        toAddress: to,
        subject: mail.subject,
        ...kept,
        status: 'outbox' satisfies MailStatus,
      })
      .returning({ id: mailOutbox.id });
    if (!row) throw new Error('mail_outbox insert returned no row');
    const details = { template, to, outboxId: row.id };

    if (!this.#transport) {
      await this.purgeOutbox();
      // Offline development follows its links from here; production keeps them out of its
      // logs (they are secrets) and staff read the outbox instead.
      const body = this.#config.env === 'production' ? {} : { link: mail.link, text: mail.text };
      this.#log.info({ ...details, ...body }, 'mail stored in the outbox (no SMTP_URL)');
      return 'outbox';
    }

    let outcome: { status: MailStatus; sentAt?: Date; error?: string };
    try {
      await this.#transport.sendMail({
        to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        // RFC 3834: tells vacation responders not to answer.
        headers: { ...headers, 'Auto-Submitted': 'auto-generated' },
      });
      outcome = { status: 'sent', sentAt: new Date() };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      outcome = { status: 'failed', error: reason.slice(0, ERROR_MAX_LENGTH) };
      this.#log.error({ ...details, err: error }, 'mail delivery failed');
    }
    await this.#db.update(mailOutbox).set(outcome).where(eq(mailOutbox.id, row.id));
    if (outcome.status === 'sent') this.#log.info(details, 'mail sent');
    return outcome.status;
  }

  /**
   * Drops outbox rows past their use. On every write rather than on a timer: offline
   * development writes little, the created_at index makes it one short range, and nothing
   * has to run (or be stopped) beside the app.
   */
  private async purgeOutbox(): Promise<void> {
    await this.#db
      .delete(mailOutbox)
      .where(lt(mailOutbox.createdAt, new Date(Date.now() - OUTBOX_RETENTION_MS)));
  }

  /** Closes pooled SMTP connections (with `?pool=true`); called when the app closes. */
  close(): void {
    this.#transport?.close();
  }
}
