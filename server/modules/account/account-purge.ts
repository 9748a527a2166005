import { and, eq, inArray, isNotNull, isNull, lte, notInArray, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import {
  auditLog,
  dataExports,
  familyMembers,
  mailOutbox,
  sessions,
  users,
} from '../../db/schema/index.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import type { FileStorage } from '../../platform/storage/file-storage.ts';
import { mediaKey } from '../../platform/storage/storage-plugin.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { publishDevicesDeleted } from '../identity/user-events.ts';
import { scrubKeptRows } from './purge-keep-list.ts';

/** Accounts looked at per query, so a backlog never loads into memory at once. */
const BATCH = 100;

/** What the purge needs: the files to remove (avatar, data exports), the log, the sign-out events. */
export interface PurgeDeps {
  db: Database;
  storage: FileStorage;
  realtime: Realtime;
  log: FastifyBaseLogger;
}

/** Keys of audit data that may hold an address: typed at sign-in, changed from and to. */
const ADDRESS_KEYS = ['email', 'from', 'to'] as const;

/**
 * Forgets the person's addresses outside the user row: the mail sent to them (which also
 * holds their name and links), family invites still waiting at them, and the addresses in
 * audit data. The audit rows themselves stay — what happened, when and from where is the
 * security record — without the address.
 */
async function forgetAddresses(
  tx: Database,
  user: { id: number; email: string; emailTmp: string | null },
): Promise<void> {
  const ownRows = and(eq(auditLog.subjectType, 'user'), eq(auditLog.subjectId, String(user.id)));
  // Every address it had, and every one it asked for: a change later cancelled or replaced
  // still had its confirmation mailed there.
  const past = await tx
    .select({
      from: sql<string | null>`${auditLog.data}->>'from'`,
      to: sql<string | null>`${auditLog.data}->>'to'`,
    })
    .from(auditLog)
    .where(
      and(
        ownRows,
        inArray(auditLog.action, ['account.email_changed', 'account.email_change_requested']),
      ),
    );
  const addresses = [
    ...new Set([user.email, user.emailTmp, ...past.flatMap((row) => [row.from, row.to])]),
  ].filter((address): address is string => Boolean(address));
  await tx.delete(mailOutbox).where(inArray(mailOutbox.toAddress, addresses));
  await tx
    .delete(familyMembers)
    .where(and(isNull(familyMembers.userId), inArray(familyMembers.email, addresses)));
  const stripped = ADDRESS_KEYS.reduce(
    (data, key) => sql`${data} - ${key}::text`,
    sql`${auditLog.data}`,
  );
  await tx
    .update(auditLog)
    .set({ data: stripped })
    .where(or(ownRows, inArray(sql`${auditLog.data}->>'email'`, addresses)));
}

/**
 * Deletes one account whose delete date has passed. The row is locked and its date checked
 * first, so an account reactivated meanwhile stays, and of two processes purging at once
 * only one deletes it (and audits it). Answers whether this call deleted it.
 */
async function purgeAccount(deps: PurgeDeps, userId: number): Promise<boolean> {
  const purged = await deps.db.transaction(async (tx) => {
    const [due] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), lte(users.deleteAt, sql`now()`)))
      .for('update');
    if (!due) return undefined;
    const ended = await tx
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.userId, userId));
    const exportFiles = await tx
      .select({ key: dataExports.fileKey })
      .from(dataExports)
      .where(and(eq(dataExports.userId, userId), isNotNull(dataExports.fileKey)));
    // Rows kept for the law or the security record lose what names the person
    // (purge-keep-list.ts) while the row that links them is still here.
    await scrubKeptRows(tx, userId);
    // Everything else that is theirs goes with the row (ON DELETE CASCADE: sessions, tokens,
    // devices, subscriptions, family, referrals, exports …); kept rows' references clear.
    const [user] = await tx.delete(users).where(eq(users.id, userId)).returning({
      id: users.id,
      email: users.email,
      emailTmp: users.emailTmp,
      photo: users.photo,
      deleteAt: users.deleteAt,
    });
    if (!user) return undefined;
    await forgetAddresses(tx, user);
    // Who the account was stays out: the point of the deletion is to forget the person.
    await recordAudit(tx, null, {
      action: 'account.deleted',
      actorId: null,
      subjectType: 'user',
      subjectId: user.id,
      data: { delete_at: user.deleteAt?.toISOString() },
    });
    const files = [mediaKey(user.photo), ...exportFiles.map((row) => row.key)];
    return {
      files: files.filter((key): key is string => Boolean(key)),
      sessionIds: ended.map((row) => row.id),
    };
  });
  if (!purged) return false;
  for (const key of purged.files) {
    try {
      await deps.storage.delete(key);
    } catch (error) {
      // The row is gone either way; an orphaned file is served to nobody who knows its name
      // (an export's is never served at all).
      deps.log.warn({ err: error, key }, 'file of a deleted account not removed');
    }
  }
  // A page still open on a deactivated account signs out (§4 live events).
  void publishDevicesDeleted(deps, userId, purged.sessionIds);
  return true;
}

/**
 * §4 account deletion, once the grace period after deactivation is over: every account
 * whose delete_at has passed is deleted with what belongs to it (sessions, tokens, avatar
 * file) and an audit entry that outlives it. Safe to run in several processes at once and
 * again after a crash. One account that cannot be deleted (a row elsewhere still needs it)
 * is logged and skipped, never holding up the others. Answers how many this run deleted.
 */
export async function purgeDeletedAccounts(deps: PurgeDeps): Promise<number> {
  const skipped: number[] = [];
  let deleted = 0;
  for (;;) {
    const due = await deps.db
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          lte(users.deleteAt, sql`now()`),
          skipped.length ? notInArray(users.id, skipped) : undefined,
        ),
      )
      .orderBy(users.deleteAt, users.id)
      .limit(BATCH);
    for (const { id } of due) {
      try {
        if (await purgeAccount(deps, id)) deleted += 1;
      } catch (error) {
        deps.log.error({ err: error, userId: id }, 'deleting an account failed');
        skipped.push(id);
      }
    }
    if (due.length < BATCH) break;
  }
  if (deleted > 0) deps.log.info({ deleted }, 'deactivated accounts deleted');
  return deleted;
}
