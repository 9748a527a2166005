import { and, asc, count, eq, inArray, or } from 'drizzle-orm';
import { listPage, type PagingQuery, pageWindow } from '#shared/contracts/list.ts';
import { NOTIFICATION_MESSAGES as M } from '#shared/contracts/notifications.ts';
import { isStaff } from '#shared/roles.ts';
import type { Database } from '../../db/client.ts';
import {
  notificationLists,
  notificationSubscriptions,
  type UserRow,
} from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { presentList, presentSubscription } from './notification-presenter.ts';

/**
 * The signed-in person's own subscriptions (§7 /notifications/*). Customers are offered the
 * visible lists; staff see hidden ones too (a hidden list is how staff try a message on
 * themselves before a list goes public). Everything is looked up by the caller's own id, so
 * nobody reaches another person's subscription through these calls.
 */
export class SubscriptionsService {
  constructor(private readonly db: Database) {}

  /** The lists `user` may subscribe to, and those they are subscribed to anyway. */
  async lists(user: UserRow, paging: PagingQuery) {
    const own = this.db
      .select({ listId: notificationSubscriptions.listId })
      .from(notificationSubscriptions)
      .where(eq(notificationSubscriptions.userId, user.id));
    const offered = isStaff(user.role)
      ? undefined
      : or(eq(notificationLists.visible, true), inArray(notificationLists.id, own));
    const { offset, limit } = pageWindow(paging);
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(notificationLists)
        .where(offered)
        .orderBy(asc(notificationLists.sort), asc(notificationLists.id))
        .offset(offset)
        .limit(limit),
      this.db.select({ value: count() }).from(notificationLists).where(offered),
    ]);
    return listPage(rows.map(presentList), paging, total?.value ?? 0);
  }

  async subscriptions(user: UserRow, paging: PagingQuery) {
    const mine = eq(notificationSubscriptions.userId, user.id);
    const { offset, limit } = pageWindow(paging);
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(notificationSubscriptions)
        .innerJoin(notificationLists, eq(notificationLists.id, notificationSubscriptions.listId))
        .where(mine)
        .orderBy(asc(notificationLists.sort), asc(notificationLists.id))
        .offset(offset)
        .limit(limit),
      this.db.select({ value: count() }).from(notificationSubscriptions).where(mine),
    ]);
    return listPage(
      rows.map((row) =>
        presentSubscription(row.notification_subscriptions, row.notification_lists),
      ),
      paging,
      total?.value ?? 0,
    );
  }

  /** Subscribing twice is the same subscription (and the same unsubscribe link). */
  async subscribe(user: UserRow, listUuid: string) {
    const [list] = await this.db
      .select()
      .from(notificationLists)
      .where(eq(notificationLists.uuid, listUuid));
    // A hidden list is not offered to customers: to them it does not exist.
    if (!list || (!list.visible && !isStaff(user.role))) {
      throw AppError.field('listUuid', M.listNotFound);
    }
    await this.db
      .insert(notificationSubscriptions)
      .values({ listId: list.id, userId: user.id })
      .onConflictDoNothing();
    const [subscription] = await this.db
      .select()
      .from(notificationSubscriptions)
      .where(
        and(
          eq(notificationSubscriptions.listId, list.id),
          eq(notificationSubscriptions.userId, user.id),
        ),
      );
    if (!subscription) throw new Error('subscription vanished right after it was made');
    return { subscription: presentSubscription(subscription, list) };
  }

  /** Someone else's subscriber id answers as an unknown one: nothing tells them it exists. */
  async unsubscribe(user: UserRow, subscriberUuid: string): Promise<void> {
    const removed = await this.db
      .delete(notificationSubscriptions)
      .where(
        and(
          eq(notificationSubscriptions.uuid, subscriberUuid),
          eq(notificationSubscriptions.userId, user.id),
        ),
      )
      .returning({ id: notificationSubscriptions.id });
    if (removed.length === 0) throw AppError.field('subscriberUuid', M.subscriptionNotFound);
  }

  async unsubscribeAll(user: UserRow): Promise<number> {
    const removed = await this.db
      .delete(notificationSubscriptions)
      .where(eq(notificationSubscriptions.userId, user.id))
      .returning({ id: notificationSubscriptions.id });
    return removed.length;
  }
}
