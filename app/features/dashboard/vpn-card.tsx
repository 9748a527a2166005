import { useTranslation } from 'react-i18next';
import { RouteLink } from '../../layout/route-link.tsx';
import { Panel } from '../../ui/panel.tsx';
import { UsageSummary, useDeviceCount } from '../vpn/usage-summary.tsx';
import { useVpnDevices } from '../vpn/vpn-api.ts';
import { LimitNotice } from '../vpn/vpn-notices.tsx';
import { CardError, CardSkeleton } from './card-states.tsx';

/**
 * The customer's WireGuard devices against the plan's limit, the period's traffic and, once
 * it is used up, when it resets; the download page adds and manages them.
 */
export function VpnCard() {
  const { t } = useTranslation();
  const devices = useVpnDevices();
  const count = useDeviceCount();
  return (
    <Panel id="dashboard-vpn" title={t('vpn.dashboard.title')}>
      {devices.isPending ? (
        <CardSkeleton lines={2} />
      ) : devices.isError ? (
        <CardError error={devices.error} onRetry={() => devices.refetch()} />
      ) : (
        <div className="flex flex-col gap-4">
          <p className="text-lg font-semibold text-slate-900" data-testid="dashboard-vpn-devices">
            {count(devices.data.items.length, devices.data.device_limit)}
          </p>
          <LimitNotice usage={devices.data.usage} />
          <UsageSummary usage={devices.data.usage} />
          <RouteLink
            name="download"
            className="self-start text-sm font-medium text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
          >
            {t('vpn.dashboard.manage')}
          </RouteLink>
        </div>
      )}
    </Panel>
  );
}
