import { randomBytes } from 'node:crypto';
import { createTransport } from 'nodemailer';
import type { MailOutboxRow } from '../../db/schema/mail-outbox.ts';

export type SmtpTransport = ReturnType<typeof createTransport>;

/** A message as the SMTP server gets it; sealed whole while it waits for another attempt. */
export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
}

export type AttemptOutcome =
  | { sent: true }
  | { sent: false; permanent: boolean; error: string; cause: unknown };

// An attempt runs inside the request (the first) or a job (the others) and a failed one is
// tried again (mail-retry.ts), so it gives up soon rather than at nodemailer's minutes. Values
// in SMTP_URL's query (`?socketTimeout=…`, also `?pool=true`) take precedence.
const SMTP_TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 5_000 };
const ERROR_MAX_LENGTH = 2_000;

export function createSmtpTransport(smtpUrl: string, from: string): SmtpTransport {
  return createTransport({ ...SMTP_TIMEOUTS, url: smtpUrl }, { from });
}

/**
 * The Message-ID every attempt at one outbox row sends (RFC 5322: unique, ours by the
 * domain). An attempt whose "250 OK" got lost is sent again: the same id lets the receiving
 * side drop the second copy, and lets staff find the row from a bounce.
 */
export function newMessageId(outboxId: number, appUrl: string): string {
  return `<${outboxId}.${randomBytes(12).toString('hex')}@${new URL(appUrl).hostname}>`;
}

/** One hand-over to the SMTP server; answers how it went, never throws. */
export async function attemptDelivery(
  transport: SmtpTransport,
  mail: OutgoingMail,
  messageId: string,
): Promise<AttemptOutcome> {
  try {
    await transport.sendMail({ ...mail, messageId });
    return { sent: true };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      sent: false,
      permanent: isPermanent(error),
      error: reason.slice(0, ERROR_MAX_LENGTH),
      cause: error,
    };
  }
}

/**
 * Only a server's refusal for good (a 5xx reply, nodemailer's `permanent`: 550 no such
 * mailbox) ends a delivery at once. A dropped or refused connection, a timeout or a 4xx
 * (421 going away, 451 try later) may pass on another attempt. So may a refused login: that
 * is our configuration, not the message, and mail waits while staff fix SMTP_URL.
 */
function isPermanent(error: unknown): boolean {
  const { permanent, code } = error as { permanent?: unknown; code?: unknown };
  return permanent === true && code !== 'EAUTH';
}

/** The columns of a row whose delivery ended, with the sealed copy gone either way. */
export function endedRow(
  outcome: AttemptOutcome,
): Pick<MailOutboxRow, 'status' | 'sealedMessage'> & Partial<MailOutboxRow> {
  return outcome.sent
    ? { status: 'sent', sentAt: new Date(), error: null, sealedMessage: null }
    : { status: 'failed', error: outcome.error, sealedMessage: null };
}
