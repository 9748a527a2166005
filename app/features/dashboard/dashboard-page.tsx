import { useTranslation } from 'react-i18next';
import { QueryProvider } from '../../api/query-provider.tsx';
import { useAppConfig } from '../../lib/app-config-context.ts';
import { titleKey } from '../../routes/route-titles.ts';
import { AccessCard } from './access-card.tsx';
import { AppsHelpCard } from './apps-help-card.tsx';
import { useDashboardLiveRefresh } from './dashboard-api.ts';
import { DevicesCard } from './devices-card.tsx';
import { FamilyCard } from './family-card.tsx';
import { ReferralCard } from './referral-card.tsx';
import { SubscriptionCard } from './subscription-card.tsx';
import { VpnCard } from './vpn-card.tsx';

/** §2 /dashboard: where every customer lands. */
export function DashboardPage() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">
        {t(titleKey('dashboard'))}
      </h1>
      <QueryProvider>
        <DashboardCards />
      </QueryProvider>
    </div>
  );
}

function DashboardCards() {
  const { features } = useAppConfig();
  useDashboardLiveRefresh();
  return (
    <div className="mt-6 grid gap-6 md:grid-cols-2">
      {features.includes('billing') && <SubscriptionCard />}
      <AccessCard />
      <VpnCard />
      {features.includes('referral') && <ReferralCard />}
      {features.includes('family_sharing') && <FamilyCard />}
      <DevicesCard />
      <AppsHelpCard />
    </div>
  );
}
