import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  type ConnectedApp,
  connectedAppsEndpoints as e,
} from '#shared/contracts/connected-apps.ts';
import { isStaff } from '#shared/roles.ts';
import { call } from '../../api/client.ts';
import { Button } from '../../ui/button.tsx';
import { confirm } from '../../ui/confirm.ts';
import { EmptyState } from '../../ui/empty-state.tsx';
import { Panel } from '../../ui/panel.tsx';
import { QueryFailure } from '../../ui/query-failure.tsx';
import { LoadingBlock } from '../../ui/spinner.tsx';
import { ScopeList } from '../oauth/scope-list.tsx';
import { formatDeviceDate } from './devices-panel.tsx';
import { useAccount } from './use-account.ts';

export const connectedAppsKey = ['account', 'connected-apps'] as const;

/**
 * Issue 24 "Connected apps": the apps this person allowed (our phone and TV apps, a
 * partner's site), what each may do, its device and last use; signing one out ends its
 * tokens at once and removes the VPN device it added.
 */
export function ConnectedAppsPanel() {
  const { user } = useAccount();
  // Staff use this page for their own account: apps sign customers in, not staff.
  return isStaff(user.role) ? null : <CustomerApps />;
}

function CustomerApps() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const apps = useQuery({
    queryKey: connectedAppsKey,
    queryFn: ({ signal }) => call(e.list, {}, { signal }),
  });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: connectedAppsKey }),
      queryClient.invalidateQueries({ queryKey: ['vpn'] }),
    ]);

  const revoke = (app: ConnectedApp) =>
    confirm({
      title: t('apps.connected.revoke_title', { app: app.client.name }),
      text: t('apps.connected.revoke_text'),
      icon: 'warning',
      actionName: 'connected-app-revoke',
      yes: { label: t('apps.connected.revoke') },
      onConfirm: async () => {
        await call(e.revoke, { body: { grant_id: app.grant_id } });
        await refresh();
      },
    });
  const revokeAll = () =>
    confirm({
      title: t('apps.connected.revoke_all_title'),
      text: t('apps.connected.revoke_all_text'),
      icon: 'danger',
      actionName: 'connected-apps-revoke-all',
      yes: { label: t('apps.connected.revoke_all') },
      onConfirm: async () => {
        await call(e.revokeAll, {});
        await refresh();
      },
    });

  const items = apps.data?.items ?? [];
  const date = (iso: string) => formatDeviceDate(iso, i18n.language);
  return (
    <Panel
      id="connected-apps"
      title={t('apps.connected.title')}
      description={t('apps.connected.description')}
      actions={
        items.length > 1 && (
          <Button variant="ghost" className="text-red-700 hover:bg-red-50" onClick={revokeAll}>
            {t('apps.connected.revoke_all')}
          </Button>
        )
      }
    >
      {apps.isPending ? (
        <LoadingBlock />
      ) : apps.isError ? (
        <QueryFailure
          error={apps.error}
          onRetry={() => apps.refetch()}
          retryLabel={t('apps.connected.retry')}
        />
      ) : items.length === 0 ? (
        <EmptyState title={t('apps.connected.empty')} />
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="connected-apps">
          {items.map((app) => (
            <li
              key={app.grant_id}
              className="flex flex-wrap items-start justify-between gap-3 py-4"
              data-testid="connected-app"
            >
              <div className="flex min-w-0 flex-col gap-2">
                <p className="text-sm font-medium text-slate-900">
                  {app.client.name}
                  {app.device_name && (
                    <span className="font-normal text-slate-600"> · {app.device_name}</span>
                  )}
                </p>
                <p className="text-xs text-slate-500">
                  {t('apps.connected.since', { date: date(app.created_at) })}
                  {' · '}
                  {app.last_used_at
                    ? t('apps.connected.last_used', { date: date(app.last_used_at) })
                    : t('apps.connected.never_used')}
                </p>
                <ScopeList scopes={app.scopes} />
              </div>
              <Button
                variant="secondary"
                onClick={() => revoke(app)}
                aria-label={t('apps.connected.revoke_named', { app: app.client.name })}
              >
                {t('apps.connected.revoke')}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
