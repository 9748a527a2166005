import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NotificationList } from '#shared/contracts/notifications.ts';
import { failureMessage } from '../../api/api-error.ts';
import { applyApiErrors } from '../../ui/api-form-errors.ts';
import { Button } from '../../ui/button.tsx';
import { confirm } from '../../ui/confirm.ts';
import { EmptyState } from '../../ui/empty-state.tsx';
import { FormError } from '../../ui/form-field.tsx';
import { Panel } from '../../ui/panel.tsx';
import { LoadingBlock } from '../../ui/spinner.tsx';
import { notify, REQUEST_ERROR_DURATION_MS } from '../../ui/toast.tsx';
import { AccountLayout } from '../account/account-layout.tsx';
import { useAccount } from '../account/use-account.ts';
import { notificationsApi, notificationsKey } from './notifications-api.ts';

/**
 * §2 account.notifications and admin.account.notifications: the e-mail lists one may join,
 * a switch each, and leaving them all. Each change is announced to screen readers.
 */
export function NotificationsPage() {
  return (
    <AccountLayout>
      <NotificationsPanel />
    </AccountLayout>
  );
}

export function NotificationsPanel() {
  const { t } = useTranslation();
  const { user } = useAccount();
  const api = notificationsApi(user.role);
  const queryClient = useQueryClient();
  const key = [...notificationsKey, 'own', user.id];
  const data = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const [lists, subscriptions] = await Promise.all([
        api.lists(signal),
        api.subscriptions(signal),
      ]);
      return { lists: lists.items, subscriptions: subscriptions.items };
    },
    // A mail's unsubscribe link changes these outside this page (often in another tab or
    // the mail app): read them again on each visit and on coming back to the tab.
    staleTime: 0,
    refetchOnWindowFocus: true,
  });
  const [busy, setBusy] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  const subscriptionOf = (list: NotificationList) =>
    data.data?.subscriptions.find((subscription) => subscription.listUuid === list.listUuid);

  const toggle = async (list: NotificationList) => {
    const subscription = subscriptionOf(list);
    setBusy(list.listUuid);
    try {
      if (subscription) {
        await api.unsubscribe(subscription.subscriberUuid);
        setAnnouncement(t('notifications.unsubscribed', { name: list.name }));
      } else {
        await api.subscribe(list.listUuid);
        setAnnouncement(t('notifications.subscribed', { name: list.name }));
      }
      await refresh();
    } catch (error) {
      // The refusal names the list or subscription as a field (gone, hidden): its words,
      // not the generic "some fields need your attention".
      const message = applyApiErrors(error, () => undefined, []);
      if (message) notify.danger(message, { duration: REQUEST_ERROR_DURATION_MS });
      await refresh();
    } finally {
      setBusy(null);
    }
  };

  const leaveAll = () =>
    confirm({
      title: t('notifications.all_title'),
      text: t('notifications.all_text'),
      icon: 'warning',
      actionName: 'unsubscribe-all',
      yes: { label: t('notifications.unsubscribe_all') },
      onConfirm: async () => {
        await api.unsubscribeAll();
        setAnnouncement(t('notifications.all_done'));
        await refresh();
      },
    });

  const lists = data.data?.lists ?? [];
  const subscribedCount = data.data?.subscriptions.length ?? 0;
  return (
    <Panel
      id="account-notifications"
      title={t('notifications.title')}
      description={t('notifications.subtitle')}
      actions={
        subscribedCount > 0 && (
          <Button variant="ghost" className="text-red-700 hover:bg-red-50" onClick={leaveAll}>
            {t('notifications.unsubscribe_all')}
          </Button>
        )
      }
    >
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      {data.isPending ? (
        <LoadingBlock />
      ) : data.isError ? (
        <div className="flex flex-col items-start gap-3">
          <FormError message={failureMessage(data.error)} />
          <Button variant="secondary" onClick={() => data.refetch()}>
            {t('notifications.retry')}
          </Button>
        </div>
      ) : lists.length === 0 ? (
        <EmptyState title={t('notifications.empty')} />
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="notification-lists">
          {lists.map((list) => {
            const on = Boolean(subscriptionOf(list));
            const descriptionId = `list-${list.listUuid}-description`;
            return (
              <li
                key={list.listUuid}
                className="flex items-start justify-between gap-4 py-4"
                data-testid="notification-list"
              >
                <div className="min-w-0">
                  <p className="text-sm font-medium text-slate-900">{list.name}</p>
                  {list.description && (
                    <p id={descriptionId} className="mt-0.5 text-sm text-slate-600">
                      {list.description}
                    </p>
                  )}
                </div>
                <button
                  type="button"
                  role="switch"
                  aria-checked={on}
                  aria-label={list.name}
                  aria-describedby={list.description ? descriptionId : undefined}
                  disabled={busy === list.listUuid}
                  onClick={() => void toggle(list)}
                  className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:opacity-60 ${on ? 'bg-brand-600' : 'bg-slate-300'}`}
                >
                  <span
                    aria-hidden="true"
                    className={`inline-block h-5 w-5 rounded-full bg-white shadow transition ${on ? 'translate-x-5' : 'translate-x-0.5'}`}
                  />
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </Panel>
  );
}
