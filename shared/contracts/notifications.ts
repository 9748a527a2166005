import { z } from 'zod';
import { recordIdNumber } from '../validation/record-id.ts';
import { requiredString } from '../validation/required.ts';
import { successResponse } from './auth.ts';
import { endpoint, ownAccountEndpoint } from './endpoint.ts';
import { booleanFilter, listControls, listResponse, pagingQuery, searchFilter } from './list.ts';

// §3 Notification lists, §7 `/notifications/*` (the signed-in person's own subscriptions:
// customers on the account base, staff on the dashboard base for /admin/account/notifications)
// and `/emp` (staff manage the lists and send to them; admin only, DESIGN "Growing the
// house"). Plus the public one-click unsubscribe every list mail carries (RFC 8058).

const invalid = { error: 'input_errors.field_is_invalid' };
const isoDate = z.iso.datetime({ offset: true });
const uuidField = z.uuid(invalid);

/** Message keys these calls answer with: the customer's in notifications.json, staff's in admin-notifications.json. */
export const NOTIFICATION_MESSAGES = {
  listNotFound: 'notifications.errors.list_not_found',
  subscriptionNotFound: 'notifications.errors.subscription_not_found',
  noSubscribers: 'staff_notifications.errors.no_subscribers',
  sendUnderWay: 'staff_notifications.errors.send_under_way',
  sendNotFound: 'staff_notifications.errors.send_not_found',
  sendFinished: 'staff_notifications.errors.send_finished',
} as const;

/** A list as a subscriber sees it (§3: name, listUuid, description). */
export const notificationList = z
  .object({
    listUuid: z.uuid(),
    name: z.string(),
    description: z.string(),
    /** Hidden lists reach staff only; a customer sees one only while subscribed to it. */
    visible: z.boolean(),
  })
  .meta({ id: 'NotificationList' });
export type NotificationList = z.infer<typeof notificationList>;

/** One's own subscription (§3: subscriberUuid) with the list it is to. */
export const notificationSubscription = z
  .object({
    subscriberUuid: z.uuid(),
    listUuid: z.uuid(),
    name: z.string(),
    description: z.string(),
    created_at: isoDate,
  })
  .meta({ id: 'NotificationSubscription' });
export type NotificationSubscription = z.infer<typeof notificationSubscription>;

export const subscribeRequest = z.object({ listUuid: uuidField });
export type SubscribeRequest = z.infer<typeof subscribeRequest>;
export const unsubscribeRequest = z.object({ subscriberUuid: uuidField });
export type UnsubscribeRequest = z.infer<typeof unsubscribeRequest>;

export const subscribeResponse = z.object({ subscription: notificationSubscription });
export const unsubscribeAllResponse = z.object({
  success: z.literal(true),
  /** How many subscriptions ended. */
  removed: z.number().int(),
});

// ——— Staff: /emp ———

export const SEND_STATUSES = ['queued', 'sending', 'done', 'canceled'] as const;
export type SendStatus = (typeof SEND_STATUSES)[number];

/** A send's progress, as staff follow it. */
export const notificationSend = z
  .object({
    send_id: z.number().int(),
    listUuid: z.uuid(),
    list_name: z.string(),
    subject: z.string(),
    status: z.enum(SEND_STATUSES),
    /** Subscribers when the send was queued; the mails may end a little off it. */
    total: z.number().int(),
    sent: z.number().int(),
    failed: z.number().int(),
    created_by: z.string().nullable(),
    created_at: isoDate,
    started_at: isoDate.nullable(),
    finished_at: isoDate.nullable(),
  })
  .meta({ id: 'NotificationSend' });
export type NotificationSend = z.infer<typeof notificationSend>;

/** A list as staff manage it. */
export const adminNotificationList = notificationList
  .extend({
    /**
     * Meant for the apps' push notifications as well as e-mail. Stored and shown to staff;
     * the web product sends e-mail only, so nothing else acts on it yet.
     */
    push: z.boolean(),
    subscribers_count: z.number().int(),
    last_send: notificationSend.nullable(),
    updated_at: isoDate,
  })
  .meta({ id: 'AdminNotificationList' });
export type AdminNotificationList = z.infer<typeof adminNotificationList>;

/** §7 GET /emp: search by name or description, filter by visibility, a page at a time. */
export const empQuery = pagingQuery.extend({ search: searchFilter, visible: booleanFilter });
export type EmpQuery = z.infer<typeof empQuery>;

/**
 * §7 "reads data.items and data.controls": the paging controls of every list, plus what the
 * screen needs to plan a send: the configured pace (mails per second, so a send to N takes
 * about N / rate seconds).
 */
export const empControls = listControls.extend({ send_rate_per_second: z.number().int() });
export const empResponse = z.object({
  items: z.array(adminNotificationList),
  controls: empControls,
});
export type EmpResponse = z.infer<typeof empResponse>;

/** §7 POST /emp/update {name, listUuid, description, visible, push}. */
export const empUpdateRequest = z.object({
  listUuid: uuidField,
  name: requiredString(120),
  description: z.string(invalid).trim().max(500, { error: 'input_errors.field_is_too_long' }),
  visible: z.boolean(invalid),
  push: z.boolean(invalid),
});
export type EmpUpdateRequest = z.infer<typeof empUpdateRequest>;
export const empListResponse = z.object({ list: adminNotificationList });

/** Limits of a message: a subject fits a mail header, a body a long newsletter. */
export const SEND_SUBJECT_MAX = 150;
export const SEND_BODY_MAX = 20_000;

/** A message to a list: a subject line and a Markdown body (no raw HTML: it is shown as text). */
export const empSendRequest = z.object({
  listUuid: uuidField,
  subject: requiredString(SEND_SUBJECT_MAX),
  body: requiredString(SEND_BODY_MAX),
});
export type EmpSendRequest = z.infer<typeof empSendRequest>;
export const empSendResponse = z.object({ send: notificationSend });

/** Stops a send still queued or under way: whoever has not had it yet never will. */
export const empSendCancelRequest = z.object({ send_id: recordIdNumber });
export type EmpSendCancelRequest = z.infer<typeof empSendCancelRequest>;

export const empSendsQuery = pagingQuery.extend({ listUuid: uuidField.optional() });
export type EmpSendsQuery = z.infer<typeof empSendsQuery>;

// ——— Public: the unsubscribe link of a list mail ———

export const oneClickParams = z.object({ subscriberUuid: z.string().max(64) });
/**
 * RFC 8058: the mail app POSTs `List-Unsubscribe=One-Click` as a form; the page's button
 * posts JSON. Either way the link itself is the secret, so the body is not required.
 */
export const oneClickBody = z
  .object({ 'List-Unsubscribe': z.string().max(64).optional() })
  .nullish();
export const unsubscribeLinkResponse = z.object({
  /** The list the link unsubscribes from; null when the link is unknown or already used. */
  list_name: z.string().nullable(),
});

/** The public page a list mail's visible link opens (below `/{lang}/`). */
export const UNSUBSCRIBE_PAGE = 'notifications/unsubscribe';

const own = { tag: 'notifications' } as const;
const staff = {
  base: 'dashboard',
  access: { permission: 'notificationLists' },
  tag: 'emp',
} as const;
const publicLink = { base: 'public', access: 'public', tag: 'notifications' } as const;

export const notificationEndpoints = {
  lists: ownAccountEndpoint({
    ...own,
    method: 'GET',
    path: '/notifications/list',
    summary: 'The lists one may subscribe to',
    query: pagingQuery,
    response: listResponse(notificationList),
  }),
  subscriptions: ownAccountEndpoint({
    ...own,
    method: 'GET',
    path: '/notifications/subscription-list',
    summary: 'Your own subscriptions',
    query: pagingQuery,
    response: listResponse(notificationSubscription),
  }),
  subscribe: ownAccountEndpoint({
    ...own,
    method: 'POST',
    path: '/notifications/subscribe',
    summary: 'Subscribe to a list (again: the same subscription)',
    body: subscribeRequest,
    response: subscribeResponse,
  }),
  unsubscribe: ownAccountEndpoint({
    ...own,
    method: 'POST',
    path: '/notifications/unsubscribe',
    summary: 'End one of your own subscriptions',
    body: unsubscribeRequest,
    response: successResponse,
  }),
  unsubscribeAll: ownAccountEndpoint({
    ...own,
    method: 'POST',
    path: '/notifications/unsubscribe-all',
    summary: 'End all your subscriptions',
    response: unsubscribeAllResponse,
  }),
};

export const empEndpoints = {
  list: endpoint({
    ...staff,
    method: 'GET',
    path: '/emp',
    summary: 'Notification e-mail lists with subscribers and their last send',
    query: empQuery,
    response: empResponse,
  }),
  update: endpoint({
    ...staff,
    method: 'POST',
    path: '/emp/update',
    summary: "Change a list's name, description, visibility and push",
    body: empUpdateRequest,
    response: empListResponse,
  }),
  send: endpoint({
    ...staff,
    method: 'POST',
    path: '/emp/send',
    summary: "Send a message to a list's subscribers (queued, throttled, resumable)",
    body: empSendRequest,
    response: empSendResponse,
    status: 201,
  }),
  sends: endpoint({
    ...staff,
    method: 'GET',
    path: '/emp/sends',
    summary: 'Messages sent to lists and their progress, the newest first',
    query: empSendsQuery,
    response: listResponse(notificationSend),
  }),
  cancelSend: endpoint({
    ...staff,
    method: 'POST',
    path: '/emp/sends/cancel',
    summary: 'Stop a message still queued or being sent',
    body: empSendCancelRequest,
    response: empSendResponse,
  }),
};

export const unsubscribeLinkEndpoints = {
  /** RFC 8058 one-click: what the List-Unsubscribe header names. No session, no CSRF header. */
  oneClick: endpoint({
    ...publicLink,
    method: 'POST',
    path: '/notifications/one-click/:subscriberUuid',
    summary: 'Unsubscribe by the link of a list mail (RFC 8058 one-click)',
    params: oneClickParams,
    body: oneClickBody,
    response: successResponse,
  }),
  /**
   * The same address opened in a browser: a GET must change nothing (mail scanners follow
   * links), so it leads to the page with the button.
   */
  oneClickPage: endpoint({
    ...publicLink,
    method: 'GET',
    path: '/notifications/one-click/:subscriberUuid',
    summary: 'Open the unsubscribe page of a list mail link',
    params: oneClickParams,
    produces: 'redirect',
  }),
  /** What the unsubscribe page shows: the list's name, nothing about its subscriber. */
  view: endpoint({
    ...publicLink,
    method: 'GET',
    path: '/notifications/unsubscribe-link/:subscriberUuid',
    summary: 'The list an unsubscribe link is for',
    params: oneClickParams,
    response: unsubscribeLinkResponse,
  }),
};
