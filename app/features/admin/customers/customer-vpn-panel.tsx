import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { customerVpnEndpoints } from '#shared/contracts/admin/customer-vpn.ts';
import type { CustomerDetail } from '#shared/contracts/admin/customers.ts';
import type { DevicesResponse, VpnDevice } from '#shared/contracts/vpn.ts';
import { failureMessage } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { formatBytes, regionName } from '../../../lib/traffic-format.ts';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { ProgressBar } from '../../../ui/progress-bar.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { DataTable } from '../kit/data-table.tsx';
import { formatDateTime } from '../kit/format.ts';
import { LastSeen, ServerStatusBadge } from '../servers/server-status.tsx';

export const customerVpnKey = (id: number) => ['admin', customerVpnEndpoints.view.url, id] as const;

/**
 * §2 /admin/customers/{id}: the customer's VPN as they have it: access, this period's traffic
 * against staff's limit, the plan's device limit, and each WireGuard device (where it is
 * placed, whether its peer is on, why not), each removable (a lost phone).
 */
export function CustomerVpnPanel({ user }: { user: CustomerDetail }) {
  const { t } = useTranslation();
  const lang = useLang();
  const query = useQuery({
    queryKey: [...customerVpnKey(user.id), lang],
    queryFn: ({ signal }) =>
      call(customerVpnEndpoints.view, { query: { user_id: user.id, lang } }, { signal }),
  });
  return (
    <Panel id="customer-vpn" title={t('staff_servers.customer.title')}>
      {query.isPending ? (
        <LoadingBlock />
      ) : query.isError ? (
        <EmptyState
          title={t('staff.kit.load_failed')}
          text={t(failureMessage(query.error))}
          action={
            <Button variant="secondary" onClick={() => void query.refetch()}>
              {t('staff.kit.retry')}
            </Button>
          }
        />
      ) : (
        <div className="flex flex-col gap-6">
          <VpnSummary vpn={query.data} />
          <VpnDevices user={user} devices={query.data.items} />
        </div>
      )}
    </Panel>
  );
}

function VpnSummary({ vpn }: { vpn: DevicesResponse }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { usage, access } = vpn;
  const used = formatBytes(usage.used_bytes, lang);
  const resets = new Intl.DateTimeFormat(lang, { dateStyle: 'medium' }).format(
    new Date(usage.period_end),
  );
  const accessText = access.blocked
    ? t('staff_servers.customer.access_blocked')
    : !access.active
      ? t('staff_servers.customer.access_none')
      : access.until
        ? t('staff_servers.customer.access_until', { date: formatDateTime(access.until, lang) })
        : t('staff_servers.customer.access_active');
  return (
    <div className="grid gap-6 sm:grid-cols-3">
      <div className="flex flex-col gap-1 text-sm">
        <p className="text-slate-500">{t('staff_servers.customer.access')}</p>
        <p className="font-medium text-slate-900" data-testid="vpn-access">
          {accessText}
        </p>
      </div>
      <div className="flex flex-col gap-1 text-sm">
        <p className="text-slate-500">{t('staff_servers.customer.usage')}</p>
        <p className="font-medium text-slate-900" data-testid="vpn-usage">
          {usage.limit_bytes === null
            ? t('staff_servers.customer.used_unlimited', { used })
            : t('staff_servers.customer.used_of', {
                used,
                limit: formatBytes(usage.limit_bytes, lang),
              })}
        </p>
        {usage.limit_bytes !== null && (
          <ProgressBar
            value={usage.limit_bytes > 0 ? usage.used_bytes / usage.limit_bytes : 1}
            label={t('staff_servers.customer.usage_bar')}
            className={usage.limit_reached ? '[&>div]:bg-red-500' : ''}
          />
        )}
        {usage.limit_reached && (
          <p className="text-xs font-medium text-red-700">
            {t('staff_servers.customer.limit_reached')}
          </p>
        )}
        <p className="text-xs text-slate-500">
          {t('staff_servers.customer.resets', { date: resets })}
        </p>
      </div>
      <div className="flex flex-col gap-1 text-sm">
        <p className="text-slate-500">{t('staff_servers.customer.device_limit')}</p>
        <p className="font-medium text-slate-900" data-testid="vpn-device-limit">
          {t('staff_servers.customer.devices_of', {
            devices: vpn.items.length,
            limit: vpn.device_limit,
          })}
        </p>
      </div>
    </div>
  );
}

function DeviceState({ device }: { device: VpnDevice }) {
  const { t } = useTranslation();
  return (
    <span className="flex flex-col gap-1">
      {device.enabled ? (
        <span className="inline-flex w-fit rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-800">
          {t('staff_servers.customer.enabled')}
        </span>
      ) : (
        <span className="inline-flex w-fit rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800">
          {device.blocked_by
            ? t(`staff_servers.customer.blocked_by.${device.blocked_by}`)
            : t('staff_servers.customer.disabled')}
        </span>
      )}
      {device.config_changed_at && (
        <span className="text-xs text-amber-800">{t('staff_servers.customer.config_changed')}</span>
      )}
    </span>
  );
}

function VpnDevices({ user, devices }: { user: CustomerDetail; devices: VpnDevice[] }) {
  const { t } = useTranslation();
  const lang = useLang();
  const client = useQueryClient();
  if (devices.length === 0) {
    return <p className="text-sm text-slate-600">{t('staff_servers.customer.no_devices')}</p>;
  }
  const remove = (device: VpnDevice) =>
    confirm({
      title: t('staff_servers.customer.remove_title', { name: device.name }),
      text: t('staff_servers.customer.remove_text', { email: user.email }),
      icon: 'danger',
      actionName: 'customer-vpn-device-delete',
      yes: { label: t('staff_servers.customer.remove'), variant: 'danger' },
      onConfirm: async () => {
        await call(customerVpnEndpoints.deleteDevice, {
          body: { user_id: user.id, device_id: device.device_id },
        });
        notify.success('staff_servers.customer.removed', { values: { name: device.name } });
        await client.invalidateQueries({ queryKey: customerVpnKey(user.id) });
      },
    });
  return (
    <DataTable
      caption={t('staff_servers.customer.devices')}
      rows={devices}
      rowKey={(device) => device.device_id}
      sort={undefined}
      direction={undefined}
      busy={false}
      onSort={() => {}}
      columns={[
        {
          key: 'name',
          header: 'staff_servers.customer.fields.name',
          cell: (device) => <span className="font-medium text-slate-900">{device.name}</span>,
        },
        {
          key: 'location',
          header: 'staff_servers.customer.fields.location',
          cell: (device) =>
            device.location === 'fastest'
              ? t('staff_servers.customer.fastest')
              : regionName(device.location, lang),
        },
        {
          key: 'server',
          header: 'staff_servers.customer.fields.server',
          cell: (device) =>
            device.server ? (
              <span className="flex flex-col gap-1">
                <span className="whitespace-nowrap">{device.server.name}</span>
                <span className="text-xs text-slate-500">
                  {device.server.city}, {device.server.country_name}
                </span>
                <ServerStatusBadge status={device.server.status} />
              </span>
            ) : (
              <span className="text-slate-500">{t('staff_servers.customer.no_server')}</span>
            ),
        },
        {
          key: 'state',
          header: 'staff_servers.customer.fields.state',
          cell: (device) => <DeviceState device={device} />,
        },
        {
          key: 'traffic',
          header: 'staff_servers.customer.fields.traffic',
          cell: (device) => (
            <span className="whitespace-nowrap text-xs">
              {t('staff_servers.customer.traffic', {
                down: formatBytes(device.tx_bytes, lang),
                up: formatBytes(device.rx_bytes, lang),
              })}
            </span>
          ),
        },
        {
          key: 'handshake',
          header: 'staff_servers.customer.fields.handshake',
          cell: (device) => <LastSeen at={device.latest_handshake_at} />,
        },
      ]}
      rowActions={(device) => (
        <Button
          variant="ghost"
          aria-label={t('staff_servers.customer.remove_named', { name: device.name })}
          onClick={() => void remove(device)}
        >
          {t('staff_servers.customer.remove')}
        </Button>
      )}
    />
  );
}
