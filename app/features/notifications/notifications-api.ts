import { notificationEndpoints as e } from '#shared/contracts/notifications.ts';
import { isStaff, type Role } from '#shared/roles.ts';
import { call } from '../../api/client.ts';

type Twin = (typeof e)[keyof typeof e];

export const notificationsKey = ['notifications'] as const;

/** One's own subscriptions: the account base for customers, the dashboard's for staff. */
export function notificationsApi(role: Role) {
  const staff = isStaff(role);
  const at = <T extends Twin>(twin: T) => (staff ? twin.dashboard : twin.account) as T['account'];
  return {
    lists: (signal?: AbortSignal) => call(at(e.lists), { query: { per_page: 100 } }, { signal }),
    subscriptions: (signal?: AbortSignal) =>
      call(at(e.subscriptions), { query: { per_page: 100 } }, { signal }),
    subscribe: (listUuid: string) => call(at(e.subscribe), { body: { listUuid } }),
    unsubscribe: (subscriberUuid: string) => call(at(e.unsubscribe), { body: { subscriberUuid } }),
    unsubscribeAll: () => call(at(e.unsubscribeAll)),
  };
}
