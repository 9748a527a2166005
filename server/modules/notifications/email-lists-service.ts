import { and, asc, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { listPage, pageWindow } from '#shared/contracts/list.ts';
import {
  type EmpQuery,
  type EmpSendCancelRequest,
  type EmpSendRequest,
  type EmpSendsQuery,
  type EmpUpdateRequest,
  NOTIFICATION_MESSAGES as M,
  type NotificationSend,
} from '#shared/contracts/notifications.ts';
import type { Database } from '../../db/client.ts';
import {
  type NotificationListRow,
  type NotificationSendRow,
  notificationLists,
  notificationSends,
  notificationSubscriptions,
  users,
} from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { JobQueue } from '../../platform/queue/job-queue.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { LIST_SEND_QUEUE, LIST_SEND_RETRY, reachable } from './list-mailing.ts';
import { presentAdminList, presentSend } from './notification-presenter.ts';

export interface EmailListsDeps {
  db: Database;
  queue: JobQueue;
}

interface Actor {
  request: FastifyRequest;
  userId: number;
}

const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** §2 /admin/notifications/email-lists, §7 /emp: staff's view and changes of the lists. */
export class EmailListsService {
  constructor(private readonly deps: EmailListsDeps) {}

  async list(query: EmpQuery, sendRate: number) {
    const { db } = this.deps;
    const filters: SQL[] = [];
    if (query.search) {
      const like = likeText(query.search);
      const match = or(
        ilike(notificationLists.name, like),
        ilike(notificationLists.description, like),
      );
      if (match) filters.push(match);
    }
    if (query.visible !== undefined) filters.push(eq(notificationLists.visible, query.visible));
    const where = filters.length > 0 ? and(...filters) : undefined;
    const { offset, limit } = pageWindow(query);
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(notificationLists)
        .where(where)
        .orderBy(asc(notificationLists.sort), asc(notificationLists.id))
        .offset(offset)
        .limit(limit),
      db.select({ value: count() }).from(notificationLists).where(where),
    ]);
    const counts = await this.subscriberCounts(rows.map((row) => row.id));
    const lastSends = await this.lastSends(rows);
    const page = listPage(
      rows.map((row) =>
        presentAdminList(row, counts.get(row.id) ?? 0, lastSends.get(row.id) ?? null),
      ),
      query,
      total?.value ?? 0,
    );
    return { items: page.items, controls: { ...page.controls, send_rate_per_second: sendRate } };
  }

  async update(actor: Actor, body: EmpUpdateRequest) {
    const list = await this.find(body.listUuid);
    const updated = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(notificationLists)
        .set({
          name: body.name,
          description: body.description,
          visible: body.visible,
          push: body.push,
        })
        .where(eq(notificationLists.id, list.id))
        .returning();
      if (!row) throw new AppError('not_found');
      await recordAudit(tx, actor.request, {
        action: 'notifications.list_updated',
        actorId: actor.userId,
        subjectType: 'notification_list',
        subjectId: list.id,
        data: {
          before: pick(list),
          after: pick(row),
        },
      });
      return row;
    });
    const counts = await this.subscriberCounts([updated.id]);
    const lastSends = await this.lastSends([updated]);
    return {
      list: presentAdminList(
        updated,
        counts.get(updated.id) ?? 0,
        lastSends.get(updated.id) ?? null,
      ),
    };
  }

  /** Queues a message to the list's reachable subscribers; the job sends it (list-mailing.ts). */
  async send(actor: Actor, body: EmpSendRequest) {
    const list = await this.find(body.listUuid);
    const { db, queue } = this.deps;
    const send = await db.transaction(async (tx) => {
      // One mailing per list at a time: a double click must not mail everyone twice. The
      // list's row is the lock two staff sending at once queue on.
      await tx
        .select({ id: notificationLists.id })
        .from(notificationLists)
        .where(eq(notificationLists.id, list.id))
        .for('update');
      const [busy] = await tx
        .select({ id: notificationSends.id })
        .from(notificationSends)
        .where(
          and(
            eq(notificationSends.listId, list.id),
            inArray(notificationSends.status, ['queued', 'sending']),
          ),
        );
      if (busy) throw new AppError('conflict', { info: M.sendUnderWay });
      const [recipients] = await tx
        .select({ value: count() })
        .from(notificationSubscriptions)
        .innerJoin(users, eq(users.id, notificationSubscriptions.userId))
        .where(and(eq(notificationSubscriptions.listId, list.id), reachable));
      const total = recipients?.value ?? 0;
      if (total === 0) throw AppError.field('listUuid', M.noSubscribers);
      const [row] = await tx
        .insert(notificationSends)
        .values({
          listId: list.id,
          subject: body.subject,
          body: body.body,
          createdBy: actor.userId,
          total,
        })
        .returning();
      if (!row) throw new Error('notification send insert returned no row');
      await recordAudit(tx, actor.request, {
        action: 'notifications.send_queued',
        actorId: actor.userId,
        subjectType: 'notification_list',
        subjectId: list.id,
        data: { send_id: row.id, subject: body.subject, recipients: total },
      });
      await queue.send(
        LIST_SEND_QUEUE,
        { sendId: row.id },
        { ...LIST_SEND_RETRY, singletonKey: `send-${row.id}`, transaction: tx },
      );
      return row;
    });
    // Committed: the job is there to be taken now, not at the workers' next poll.
    queue.wake(LIST_SEND_QUEUE);
    return { send: await this.presentOne(send, list) };
  }

  /**
   * Stops a send: the job reads the status before each batch, so a batch under way finishes
   * and none follows. Audited with how far it got.
   */
  async cancelSend(actor: Actor, body: EmpSendCancelRequest) {
    const { db } = this.deps;
    const stopped = await db.transaction(async (tx) => {
      const [send] = await tx
        .select()
        .from(notificationSends)
        .where(eq(notificationSends.id, body.send_id))
        .for('update');
      if (!send) throw new AppError('not_found', { info: M.sendNotFound });
      if (send.status !== 'queued' && send.status !== 'sending') {
        throw new AppError('conflict', { info: M.sendFinished });
      }
      const [row] = await tx
        .update(notificationSends)
        .set({ status: 'canceled', finishedAt: new Date() })
        .where(eq(notificationSends.id, send.id))
        .returning();
      if (!row) throw new Error('notification send update returned no row');
      await recordAudit(tx, actor.request, {
        action: 'notifications.send_canceled',
        actorId: actor.userId,
        subjectType: 'notification_list',
        subjectId: send.listId,
        data: { send_id: send.id, subject: send.subject, sent: send.sent, total: send.total },
      });
      return row;
    });
    const [list] = await db
      .select()
      .from(notificationLists)
      .where(eq(notificationLists.id, stopped.listId));
    if (!list) throw new AppError('not_found', { info: M.listNotFound });
    return { send: await this.presentOne(stopped, list) };
  }

  async sends(query: EmpSendsQuery) {
    const { db } = this.deps;
    let where: SQL | undefined;
    if (query.listUuid) {
      const list = await this.find(query.listUuid);
      where = eq(notificationSends.listId, list.id);
    }
    const { offset, limit } = pageWindow(query);
    const [rows, [total]] = await Promise.all([
      db
        .select({ send: notificationSends, list: notificationLists, email: users.email })
        .from(notificationSends)
        .innerJoin(notificationLists, eq(notificationLists.id, notificationSends.listId))
        .leftJoin(users, eq(users.id, notificationSends.createdBy))
        .where(where)
        .orderBy(desc(notificationSends.createdAt), desc(notificationSends.id))
        .offset(offset)
        .limit(limit),
      db.select({ value: count() }).from(notificationSends).where(where),
    ]);
    return listPage(
      rows.map((row) => presentSend(row.send, row.list, row.email)),
      query,
      total?.value ?? 0,
    );
  }

  private async find(listUuid: string): Promise<NotificationListRow> {
    const [list] = await this.deps.db
      .select()
      .from(notificationLists)
      .where(eq(notificationLists.uuid, listUuid));
    if (!list) throw AppError.field('listUuid', M.listNotFound);
    return list;
  }

  private async presentOne(send: NotificationSendRow, list: NotificationListRow) {
    const [author] = send.createdBy
      ? await this.deps.db
          .select({ email: users.email })
          .from(users)
          .where(eq(users.id, send.createdBy))
      : [];
    return presentSend(send, list, author?.email ?? null);
  }

  private async subscriberCounts(listIds: number[]): Promise<Map<number, number>> {
    if (listIds.length === 0) return new Map();
    const rows = await this.deps.db
      .select({ listId: notificationSubscriptions.listId, value: count() })
      .from(notificationSubscriptions)
      .where(inArray(notificationSubscriptions.listId, listIds))
      .groupBy(notificationSubscriptions.listId);
    return new Map(rows.map((row) => [row.listId, row.value]));
  }

  private async lastSends(lists: NotificationListRow[]): Promise<Map<number, NotificationSend>> {
    const found = new Map<number, NotificationSend>();
    if (lists.length === 0) return found;
    const rows = await this.deps.db
      .selectDistinctOn([notificationSends.listId], {
        send: notificationSends,
        email: users.email,
      })
      .from(notificationSends)
      .leftJoin(users, eq(users.id, notificationSends.createdBy))
      .where(
        inArray(
          notificationSends.listId,
          lists.map((list) => list.id),
        ),
      )
      .orderBy(
        notificationSends.listId,
        desc(notificationSends.createdAt),
        desc(notificationSends.id),
      );
    const byId = new Map(lists.map((list) => [list.id, list]));
    for (const row of rows) {
      const list = byId.get(row.send.listId);
      if (list) found.set(list.id, presentSend(row.send, list, row.email));
    }
    return found;
  }
}

const pick = (list: NotificationListRow) => ({
  name: list.name,
  description: list.description,
  visible: list.visible,
  push: list.push,
});
