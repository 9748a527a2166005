import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema/mail-outbox.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Job, JobQueue } from '../queue/job-queue.ts';
import type { MailLog } from './mailer.ts';
import {
  type AttemptOutcome,
  attemptDelivery,
  endedRow,
  type OutgoingMail,
  type SmtpTransport,
} from './smtp-delivery.ts';

/** The durable job that tries a message again after its first attempt failed for now. */
export const MAIL_RETRY_QUEUE = 'mail.retry';

export interface MailRetryPolicy {
  /**
   * Seconds from the first attempt (the request's) to the job's first. The job is queued
   * before that attempt: longer than the attempt can take (its SMTP timeouts), so the job
   * finds the row already sent unless the attempt failed or its process died.
   */
  firstDelaySeconds: number;
  /** The job's attempts after its first. */
  retryLimit: number;
  /** Seconds before the job's next attempt; doubled each time with back-off (jittered). */
  retryDelaySeconds: number;
  retryBackoff: boolean;
}

/**
 * Ten attempts: the request's, the job's 30 s later, then waits doubling from 10–20 s, the
 * last one about 1 h after the first. That outlasts a mail server's restart, a failover or a
 * greylisting (451 for some minutes); a server down for longer is an outage staff see in the
 * log and in the rows left `failed`.
 */
export const MAIL_RETRY: MailRetryPolicy = {
  firstDelaySeconds: 30,
  retryLimit: 8,
  retryDelaySeconds: 10,
  retryBackoff: true,
};

interface RetryJob {
  outboxId: number;
}

/**
 * Before the first attempt: seals the message into its row (its links are live secrets; the
 * copy is readable only with the app key, and dropped once delivery ends) and queues the job
 * that tries again, in one transaction. So a row is `retrying` exactly when a job will come
 * for it: if the attempt fails, or the process dies during it or right after the server's
 * "250 OK" (the job then sends once more under the same Message-ID), nothing is lost and
 * nothing has to sweep for rows left behind.
 */
export async function holdForRetry(
  deps: { db: Database; queue: JobQueue; box: SecretBox; policy: MailRetryPolicy },
  outboxId: number,
  mail: OutgoingMail,
  messageId: string,
): Promise<void> {
  const { policy } = deps;
  await deps.db.transaction(async (tx) => {
    await tx
      .update(mailOutbox)
      .set({
        status: 'retrying',
        messageId,
        attempts: 1,
        sealedMessage: deps.box.seal(JSON.stringify(mail)),
      })
      .where(eq(mailOutbox.id, outboxId));
    await deps.queue.send(MAIL_RETRY_QUEUE, { outboxId } satisfies RetryJob, {
      transaction: tx,
      singletonKey: String(outboxId),
      startAfter: policy.firstDelaySeconds,
      retryLimit: policy.retryLimit,
      retryDelaySeconds: policy.retryDelaySeconds,
      retryBackoff: policy.retryBackoff,
    });
  });
}

export interface RetryDeps {
  db: Database;
  box: SecretBox;
  transport: SmtpTransport;
  log: MailLog;
  policy: MailRetryPolicy;
}

/**
 * The job: sends the sealed copy again with the row's Message-ID. Throws while the failure
 * may pass, so the queue tries again later; on the job's last try, or at a refusal for good,
 * the row ends `failed`. Safe to run again: a row that ended is left alone, and one whose
 * "250 OK" came but whose update did not (a process killed in between) goes out once more
 * under the same Message-ID, never a different one.
 */
export async function retryDelivery(
  deps: RetryDeps,
  job: Pick<Job, 'data' | 'retryCount'>,
): Promise<void> {
  const { outboxId } = job.data as RetryJob;
  const lastTry = job.retryCount >= deps.policy.retryLimit;
  // The row stays locked for its attempt, so a second worker given the same row does not
  // send alongside; a process that dies mid-attempt lets go of it. That holds a connection
  // for up to the SMTP timeouts (one per worker, which runs one job at a time); on PGlite,
  // one connection, other queries wait as long, but a failing mail server is rare there:
  // the embedded default has no SMTP at all.
  const result = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        template: mailOutbox.template,
        to: mailOutbox.toAddress,
        messageId: mailOutbox.messageId,
        sealedMessage: mailOutbox.sealedMessage,
        attempts: mailOutbox.attempts,
      })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.id, outboxId), eq(mailOutbox.status, 'retrying')))
      .for('update', { skipLocked: true });
    if (!row) return (await isRetrying(tx, outboxId)) ? 'busy' : 'done';
    if (!row.sealedMessage || !row.messageId) return 'done';
    const outcome = await attemptSealed(deps, row.sealedMessage, row.messageId);
    const ended = outcome.sent || outcome.permanent || lastTry;
    const attempts = row.attempts + 1;
    await tx
      .update(mailOutbox)
      .set({ attempts, ...(ended ? endedRow(outcome) : { error: outcomeError(outcome) }) })
      .where(eq(mailOutbox.id, outboxId));
    return { outcome, ended, details: { template: row.template, to: row.to, outboxId, attempts } };
  });
  // Sent, ended, or deleted with its account.
  if (result === 'done') return;
  // Another worker's attempt runs: this job looks again later, in case that one dies.
  if (result === 'busy') throw new Error(`mail ${outboxId} is being sent by another worker`);
  const { outcome, ended, details } = result;
  if (outcome.sent) deps.log.info(details, 'mail sent');
  else if (ended) deps.log.error({ ...details, err: outcome.cause }, 'mail delivery failed');
  else throw new Error(`mail ${outboxId} not delivered yet: ${outcome.error}`);
}

async function isRetrying(db: Database, outboxId: number): Promise<boolean> {
  const [row] = await db
    .select({ status: mailOutbox.status })
    .from(mailOutbox)
    .where(eq(mailOutbox.id, outboxId));
  return row?.status === 'retrying';
}

async function attemptSealed(
  deps: RetryDeps,
  sealed: string,
  messageId: string,
): Promise<AttemptOutcome> {
  let mail: OutgoingMail;
  try {
    mail = JSON.parse(deps.box.open(sealed)) as OutgoingMail;
  } catch (cause) {
    const error = 'the sealed copy cannot be opened (was APP_SECRET changed?)';
    return { sent: false, permanent: true, error, cause };
  }
  return attemptDelivery(deps.transport, mail, messageId);
}

function outcomeError(outcome: AttemptOutcome): string | null {
  return outcome.sent ? null : outcome.error;
}
