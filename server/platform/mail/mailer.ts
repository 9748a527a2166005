import { eq, lt } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema/mail-outbox.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Job, JobQueue } from '../queue/job-queue.ts';
import { type ListMailMessage, renderListMail } from './list-mail.tsx';
import { holdForRetry, MAIL_RETRY, type MailRetryPolicy, retryDelivery } from './mail-retry.ts';
import { type MailMessage, type RenderedMail, renderMail } from './render-mail.tsx';
import {
  attemptDelivery,
  createSmtpTransport,
  endedRow,
  newMessageId,
  type OutgoingMail,
  type SmtpTransport,
} from './smtp-delivery.ts';

export type { MailMessage, TemplateData, TemplateName } from './render-mail.tsx';

/** A row's status in `mail_outbox`; 'retrying' is on its way (a job tries again). */
export type MailStatus = 'outbox' | 'retrying' | 'sent' | 'failed';

/** The part of the app's logger the mailer writes to (pino's signature). */
export interface MailLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface MailerOptions {
  db: Database;
  config: Pick<Config, 'env' | 'appUrl' | 'smtpUrl' | 'mailFrom'>;
  log: MailLog;
  /** Where a message that failed for now waits to be tried again. */
  queue: JobQueue;
  /** Seals such a message in its row. */
  box: SecretBox;
  /** MAIL_RETRY unless a test wants it quicker. */
  retry?: MailRetryPolicy;
}

/**
 * How long the outbox keeps a message it is the only copy of (no SMTP_URL): the longest life
 * of a link a message carries (password set, 7 days; auth/one-time-tokens.ts). Older rows
 * hold nothing anyone can still use.
 */
export const OUTBOX_RETENTION_MS = 7 * 24 * 3_600_000;

/**
 * Renders and sends the product's e-mail, recording each message in `mail_outbox`.
 *
 * With SMTP_URL the row is a delivery log: recipient, template, subject, Message-ID, status
 * ('outbox' while the first attempt runs in the request, then 'sent', 'retrying' or 'failed'
 * with the server's answer), attempts and times, but never the bodies in the clear. Their
 * links carry live one-time tokens, and a readable copy in the database would let anyone who
 * reads it (a backup, a replica, a support tool) reset a password. A first attempt that fails
 * for now (connection, timeout, 4xx) seals the message under the app key and leaves it to a
 * durable job (mail-retry.ts); a refusal for good (5xx) ends it 'failed'. Neither throws: the
 * action that triggered the mail (a sign-up, a reset request) has happened, the row shows
 * staff how delivery goes.
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
  readonly #queue: JobQueue;
  readonly #box: SecretBox;
  readonly #retry: MailRetryPolicy;
  readonly #transport: SmtpTransport | undefined;

  constructor({ db, config, log, queue, box, retry = MAIL_RETRY }: MailerOptions) {
    this.#db = db;
    this.#config = config;
    this.#log = log;
    this.#queue = queue;
    this.#box = box;
    this.#retry = retry;
    this.#transport = config.smtpUrl
      ? createSmtpTransport(config.smtpUrl, config.mailFrom)
      : undefined;
  }

  /** Whether mail goes to an SMTP server (SMTP_URL), so retries have somewhere to go. */
  get delivers(): boolean {
    return this.#transport !== undefined;
  }

  async send(message: MailMessage): Promise<void> {
    const { template, to } = message;
    await this.deliver(template, to, renderMail(message, { appUrl: this.#config.appUrl }));
  }

  /**
   * A message staff send to a notification list, with its List-Unsubscribe headers. Answers
   * how it went ('failed' is logged, not thrown; 'retrying' is still on its way), so a
   * mailing can count its failures.
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

    return this.#sendFirst(this.#transport, details, {
      to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      // RFC 3834: tells vacation responders not to answer.
      headers: { ...headers, 'Auto-Submitted': 'auto-generated' },
    });
  }

  /** The first attempt, in the caller's time; what fails for now is left to the retry job. */
  async #sendFirst(
    transport: SmtpTransport,
    details: { template: string; to: string; outboxId: number },
    outgoing: OutgoingMail,
  ): Promise<MailStatus> {
    const { outboxId } = details;
    const messageId = newMessageId(outboxId, this.#config.appUrl);
    // Before the attempt the row is held for a retry (sealed, its job queued): a process that
    // dies during the attempt leaves a mail the job sends, not one lost.
    const held = await holdForRetry(
      { db: this.#db, queue: this.#queue, box: this.#box, policy: this.#retry },
      outboxId,
      outgoing,
      messageId,
    ).then(
      () => true,
      async (error: unknown) => {
        this.#log.error({ ...details, err: error }, 'mail could not be queued for a retry');
        await this.#db
          .update(mailOutbox)
          .set({ messageId, attempts: 1 })
          .where(eq(mailOutbox.id, outboxId));
        return false;
      },
    );
    const outcome = await attemptDelivery(transport, outgoing, messageId);
    if (outcome.sent) {
      await this.#db.update(mailOutbox).set(endedRow(outcome)).where(eq(mailOutbox.id, outboxId));
      this.#log.info(details, 'mail sent');
      return 'sent';
    }
    if (held && !outcome.permanent) {
      await this.#db
        .update(mailOutbox)
        .set({ error: outcome.error })
        .where(eq(mailOutbox.id, outboxId));
      this.#log.warn({ ...details, err: outcome.cause }, 'mail delivery failed; will retry');
      return 'retrying';
    }
    await this.#db.update(mailOutbox).set(endedRow(outcome)).where(eq(mailOutbox.id, outboxId));
    this.#log.error({ ...details, err: outcome.cause }, 'mail delivery failed');
    return 'failed';
  }

  /** The retry job's handler (mailer-plugin.ts registers it while SMTP_URL is set). */
  async retry(job: Pick<Job, 'data' | 'retryCount'>): Promise<void> {
    if (!this.#transport) throw new Error('mail retries need SMTP_URL');
    await retryDelivery(
      {
        db: this.#db,
        box: this.#box,
        transport: this.#transport,
        log: this.#log,
        policy: this.#retry,
      },
      job,
    );
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
