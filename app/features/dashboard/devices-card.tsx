import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type PluralForms, pluralKey } from '../../i18n/plural.ts';
import { useRoutePath } from '../../layout/route-link.tsx';
import { Panel } from '../../ui/panel.tsx';
import { useLang } from '../auth/use-lang.ts';
import { CardError, CardSkeleton } from './card-states.tsx';
import { useDashboard } from './dashboard-api.ts';

const DEVICES: PluralForms = {
  one: 'dashboard.devices.count.one',
  few: 'dashboard.devices.count.few',
  many: 'dashboard.devices.count.many',
  other: 'dashboard.devices.count.other',
};

/** The security page's panel of devices (app/features/account/devices-panel.tsx). */
const DEVICES_PANEL = '#account-devices';

/** §4 Devices: how many browsers are signed in, and the way to see and sign them out. */
export function DevicesCard() {
  const { t } = useTranslation();
  const lang = useLang();
  const dashboard = useDashboard();
  const security = useRoutePath('account.security');
  return (
    <Panel id="dashboard-devices" title={t('dashboard.devices.title')}>
      {dashboard.isPending ? (
        <CardSkeleton lines={1} />
      ) : dashboard.isError ? (
        <CardError error={dashboard.error} onRetry={() => dashboard.refetch()} />
      ) : (
        <div>
          <p className="text-lg font-semibold text-slate-900" data-testid="dashboard-devices">
            {t(pluralKey(DEVICES, dashboard.data.devices_count, lang), {
              n: dashboard.data.devices_count,
            })}
          </p>
          <Link
            to={`${security}${DEVICES_PANEL}`}
            className="mt-3 inline-block text-sm font-medium text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
          >
            {t('dashboard.devices.manage')}
          </Link>
        </div>
      )}
    </Panel>
  );
}
