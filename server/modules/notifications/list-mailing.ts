import { and, asc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import { API_BASES } from '#shared/api-bases.ts';
import { UNSUBSCRIBE_PAGE } from '#shared/contracts/notifications.ts';
import { isLang } from '#shared/locales.ts';
import { isStaff } from '#shared/roles.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import {
  notificationLists,
  notificationSends,
  notificationSubscriptions,
  users,
} from '../../db/schema/index.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { JobQueue } from '../../platform/queue/job-queue.ts';

// A message to a list goes out through the durable queue (server/platform/queue), a slice of
// batches per job: each batch is at most NOTIFICATION_MAILS_PER_SECOND mails, one batch a
// second, in subscription id order. After each batch the send row keeps how far it got
// (`last_subscription_id`, `sent`, `failed`), so a job that fails, or a process that stops,
// resumes after the last saved batch: nobody gets the message twice, except the recipients
// of a batch cut off half-way (delivery is at least once, like every job here). A slice ends
// after SLICE_MS and queues its continuation with its last save, so a shutdown never waits
// long for a mailing and one process never holds a big one.

export const LIST_SEND_QUEUE = 'notifications.list_send';
const SLICE_MS = 4_000;
/** A failed slice is retried soon: the next batch is all it has to redo. */
export const LIST_SEND_RETRY = { retryLimit: 10, retryDelaySeconds: 2, retryBackoff: true };

export interface ListMailingDeps {
  db: Database;
  mailer: Pick<Mailer, 'sendList'>;
  queue: JobQueue;
  config: Pick<Config, 'appUrl' | 'defaultLocale' | 'notificationMailsPerSecond'>;
  log: { error(details: object, message: string): void };
}

/** Who a list mail reaches: a verified, active, unblocked account (what a sign-in needs). */
export const reachable = and(
  isNotNull(users.emailVerifiedAt),
  isNull(users.deleteAt),
  isNull(users.blockedAt),
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Sends one slice of a mailing; queues the next one if recipients remain. */
export async function runListSend(deps: ListMailingDeps, sendId: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const batchStarted = Date.now();
    const more = await sendBatch(deps, sendId);
    if (more === 'finished') return;
    if (Date.now() - started + 1_000 > SLICE_MS) {
      await deps.queue.send(
        LIST_SEND_QUEUE,
        { sendId },
        { ...LIST_SEND_RETRY, singletonKey: `send-${sendId}` },
      );
      return;
    }
    await sleep(1_000 - (Date.now() - batchStarted));
  }
}

async function sendBatch(deps: ListMailingDeps, sendId: number): Promise<'more' | 'finished'> {
  const { db } = deps;
  const [send] = await db.select().from(notificationSends).where(eq(notificationSends.id, sendId));
  if (!send || send.status === 'done' || send.status === 'canceled') return 'finished';
  const [list] = await db
    .select()
    .from(notificationLists)
    .where(eq(notificationLists.id, send.listId));
  if (!list) return 'finished';
  if (send.status === 'queued') {
    await db
      .update(notificationSends)
      .set({ status: 'sending', startedAt: new Date() })
      .where(and(eq(notificationSends.id, sendId), eq(notificationSends.status, 'queued')));
  }
  const batch = await db
    .select({
      id: notificationSubscriptions.id,
      uuid: notificationSubscriptions.uuid,
      email: users.email,
      name: users.name,
      username: users.username,
      locale: users.locale,
      role: users.role,
    })
    .from(notificationSubscriptions)
    .innerJoin(users, eq(users.id, notificationSubscriptions.userId))
    .where(
      and(
        eq(notificationSubscriptions.listId, send.listId),
        gt(notificationSubscriptions.id, send.lastSubscriptionId),
        reachable,
      ),
    )
    .orderBy(asc(notificationSubscriptions.id))
    .limit(deps.config.notificationMailsPerSecond);
  if (batch.length === 0) {
    // Only a send still under way: one staff stopped meanwhile stays stopped.
    await db
      .update(notificationSends)
      .set({ status: 'done', finishedAt: new Date() })
      .where(and(eq(notificationSends.id, sendId), eq(notificationSends.status, 'sending')));
    return 'finished';
  }
  let sent = 0;
  let failed = 0;
  for (const recipient of batch) {
    const locale = isLang(recipient.locale) ? recipient.locale : deps.config.defaultLocale;
    const status = await deps.mailer.sendList({
      to: recipient.email,
      locale,
      name: recipient.name?.trim() || recipient.username,
      listName: list.name,
      subject: send.subject,
      body: send.body,
      ...unsubscribeLinks(deps.config, locale, recipient.uuid, isStaff(recipient.role)),
      listId: `${list.uuid}.lists.${new URL(deps.config.appUrl).hostname}`,
    });
    if (status === 'failed') failed += 1;
    else sent += 1;
  }
  const last = batch[batch.length - 1]?.id ?? send.lastSubscriptionId;
  // Only from where this batch started: a second worker on the same send (a job run twice)
  // cannot count a batch twice.
  await db
    .update(notificationSends)
    .set({
      sent: sql`${notificationSends.sent} + ${sent}`,
      failed: sql`${notificationSends.failed} + ${failed}`,
      lastSubscriptionId: last,
    })
    .where(
      and(
        eq(notificationSends.id, sendId),
        eq(notificationSends.lastSubscriptionId, send.lastSubscriptionId),
      ),
    );
  return 'more';
}

/** The links a list mail carries: the one-click POST target, the page, the settings. */
export function unsubscribeLinks(
  config: Pick<Config, 'appUrl'>,
  locale: string,
  subscriberUuid: string,
  staff = false,
) {
  const oneClick = `${API_BASES.public}/notifications/one-click/${subscriberUuid}`;
  return {
    oneClickUrl: `${config.appUrl}${oneClick}`,
    unsubscribePageUrl: `${config.appUrl}/${locale}/${UNSUBSCRIBE_PAGE}/${subscriberUuid}`,
    settingsUrl: `${config.appUrl}/${locale}/${staff ? 'admin/' : ''}account/notifications`,
  };
}
