import type {
  AdminNotificationList,
  NotificationList,
  NotificationSend,
  NotificationSubscription,
  SendStatus,
} from '#shared/contracts/notifications.ts';
import type {
  NotificationListRow,
  NotificationSendRow,
  NotificationSubscriptionRow,
} from '../../db/schema/index.ts';

export function presentList(list: NotificationListRow): NotificationList {
  return {
    listUuid: list.uuid,
    name: list.name,
    description: list.description,
    visible: list.visible,
  };
}

export function presentSubscription(
  subscription: NotificationSubscriptionRow,
  list: NotificationListRow,
): NotificationSubscription {
  return {
    subscriberUuid: subscription.uuid,
    listUuid: list.uuid,
    name: list.name,
    description: list.description,
    created_at: subscription.createdAt.toISOString(),
  };
}

export function presentSend(
  send: NotificationSendRow,
  list: Pick<NotificationListRow, 'uuid' | 'name'>,
  createdBy: string | null,
): NotificationSend {
  return {
    send_id: send.id,
    listUuid: list.uuid,
    list_name: list.name,
    subject: send.subject,
    status: send.status as SendStatus,
    total: send.total,
    sent: send.sent,
    failed: send.failed,
    created_by: createdBy,
    created_at: send.createdAt.toISOString(),
    started_at: send.startedAt?.toISOString() ?? null,
    finished_at: send.finishedAt?.toISOString() ?? null,
  };
}

export function presentAdminList(
  list: NotificationListRow,
  subscribers: number,
  lastSend: NotificationSend | null,
): AdminNotificationList {
  return {
    ...presentList(list),
    push: list.push,
    subscribers_count: subscribers,
    last_send: lastSend,
    updated_at: list.updatedAt.toISOString(),
  };
}
