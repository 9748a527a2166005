import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Device } from '#shared/contracts/account.ts';
import { isStaff } from '#shared/roles.ts';
import { Button } from '../../ui/button.tsx';
import { confirm } from '../../ui/confirm.ts';
import { EmptyState } from '../../ui/empty-state.tsx';
import { Panel } from '../../ui/panel.tsx';
import { QueryFailure } from '../../ui/query-failure.tsx';
import { LoadingBlock } from '../../ui/spinner.tsx';
import { notify } from '../../ui/toast.tsx';
import { describeUserAgent } from './device-label.ts';
import { useAccount } from './use-account.ts';
import { VpnDevicesGroup } from './vpn-devices-group.tsx';

export const devicesKey = ['account', 'devices'] as const;

/** §9 "Session device date format MMM DD, YYYY", in the page's language. */
export function formatDeviceDate(iso: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, { month: 'short', day: '2-digit', year: 'numeric' }).format(
    new Date(iso),
  );
}

/**
 * §4 Devices: every signed-in browser, the current one first; each other one can be logged
 * out, or all of them, after the password (§5). A customer's WireGuard devices are a second
 * group of the same panel; staff, whose account this screen also serves, have none.
 */
export function DevicesPanel() {
  const { t, i18n } = useTranslation();
  const { user, api, applyUser } = useAccount();
  const queryClient = useQueryClient();
  const browsersId = useId();
  // Pages of the list (§3 controls); the current device leads page one.
  const devices = useInfiniteQuery({
    queryKey: [...devicesKey, user.id],
    queryFn: ({ pageParam, signal }) => api.devices(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: ({ controls }) =>
      controls.page < controls.last_page ? controls.page + 1 : undefined,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: devicesKey });

  const logOut = (device: Device) =>
    confirm({
      title: t('settings.devices.logout_title'),
      text: t('settings.devices.logout_text', { device: deviceName(device) }),
      icon: 'warning',
      password: true,
      actionName: 'device-logout',
      modal: 'device-logout',
      data: device,
      yes: { label: t('settings.devices.logout') },
      onConfirm: async (password, target) => {
        if (!target) return;
        await api.logoutDevice({ id: target.id, password });
        notify.success('toasts.device_logged_out');
        await refresh();
      },
    });

  const logOutOthers = () =>
    confirm({
      title: t('settings.devices.others_title'),
      text: t('settings.devices.others_text'),
      icon: 'warning',
      password: true,
      actionName: 'other-devices-logout',
      modal: 'other-devices-logout',
      yes: { label: t('settings.devices.logout_others') },
      onConfirm: async (password) => {
        await api.logoutOtherDevices(password);
        notify.success('toasts.other_devices_logged_out');
        await refresh();
      },
    });

  const logOutAll = () =>
    confirm({
      title: t('settings.devices.all_title'),
      text: t('settings.devices.all_text'),
      icon: 'danger',
      password: true,
      actionName: 'all-devices-logout',
      modal: 'other-devices-logout',
      yes: { label: t('settings.devices.logout_all') },
      onConfirm: async (password) => {
        await api.logoutAllDevices(password);
        // This session ended too: §4 reaction 1 takes the user to sign in.
        setTimeout(() => void applyUser(null), 0);
      },
    });

  const deviceName = (device: Device) => {
    const { browser, os } = describeUserAgent(device.user_agent);
    if (browser && os) return t('settings.devices.browser_on', { browser, os });
    return browser ?? os ?? t('settings.devices.unknown');
  };

  const items = devices.data?.pages.flatMap((page) => page.items) ?? [];
  const others = items.filter((device) => !device.isCurrent);
  const actions = items.length > 0 && (
    <>
      {others.length > 0 && (
        <Button variant="secondary" onClick={logOutOthers}>
          {t('settings.devices.logout_others')}
        </Button>
      )}
      <Button variant="ghost" className="text-red-700 hover:bg-red-50" onClick={logOutAll}>
        {t('settings.devices.logout_all')}
      </Button>
    </>
  );
  const list = (
    <>
      {devices.isPending ? (
        <LoadingBlock />
      ) : devices.isError ? (
        <QueryFailure
          error={devices.error}
          onRetry={() => devices.refetch()}
          retryLabel={t('settings.devices.retry')}
        />
      ) : items.length === 0 ? (
        <EmptyState title={t('settings.devices.empty')} />
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="devices">
          {items.map((device) => (
            <li
              key={device.id}
              className="flex flex-wrap items-center justify-between gap-3 py-3"
              data-testid="device"
              data-current={device.isCurrent}
            >
              <div className="min-w-0">
                <p className="flex items-center gap-2 text-sm font-medium text-slate-900">
                  {deviceName(device)}
                  {device.isCurrent && (
                    <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700">
                      {t('settings.devices.current')}
                    </span>
                  )}
                </p>
                <p className="mt-0.5 text-xs text-slate-500">
                  {t('settings.devices.details', {
                    ip: device.ip ?? t('settings.devices.unknown_ip'),
                    date: formatDeviceDate(device.last_login_at, i18n.language),
                  })}
                </p>
              </div>
              {!device.isCurrent && (
                <Button variant="ghost" onClick={() => logOut(device)}>
                  {t('settings.devices.logout')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {devices.hasNextPage && (
        <Button
          variant="secondary"
          className="mt-3"
          loading={devices.isFetchingNextPage}
          onClick={() => devices.fetchNextPage()}
        >
          {t('settings.devices.more')}
        </Button>
      )}
    </>
  );

  if (isStaff(user.role)) {
    return (
      <Panel
        id="account-devices"
        title={t('settings.devices.title')}
        description={t('settings.devices.subtitle')}
        actions={actions}
      >
        {list}
      </Panel>
    );
  }
  return (
    <Panel id="account-devices" title={t('settings.devices.title')}>
      <div className="flex flex-col gap-8">
        <section aria-labelledby={browsersId} data-testid="account-browsers">
          <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
            <div className="min-w-0">
              <h3 id={browsersId} className="text-sm font-semibold text-slate-900">
                {t('vpn.security.browsers')}
              </h3>
              <p className="mt-1 text-sm text-slate-600">{t('settings.devices.subtitle')}</p>
            </div>
            {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
          </div>
          <div className="mt-4">{list}</div>
        </section>
        <div className="border-t border-slate-100 pt-6">
          <VpnDevicesGroup />
        </div>
      </div>
    </Panel>
  );
}
