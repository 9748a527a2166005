import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dashboardEndpoints } from '#shared/contracts/admin/dashboard.ts';
import { statisticsEndpoints } from '#shared/contracts/admin/statistics.ts';
import { hasPermission } from '#shared/permissions.ts';
import { call } from '../../../api/client.ts';
import { adminMenu } from '../../../layout/menus.ts';
import { RouteLink } from '../../../layout/route-link.tsx';
import { useAppConfig } from '../../../lib/app-config-context.ts';
import { useSession } from '../../../session/session-store.ts';
import { Panel } from '../../../ui/panel.tsx';
import { AdminPage } from '../kit/admin-page.tsx';
import { isoDay, monthToDate } from '../statistics/date-range.ts';
import { QueryBlock } from '../statistics/query-block.tsx';
import { FailedPayments } from './failed-payments.tsx';
import { LatestInvoices } from './latest-invoices.tsx';
import { RevenueCards } from './revenue-cards.tsx';
import { SummaryFigures } from './summary-figures.tsx';

/**
 * §2 /admin/dashboard, where admin and author land. An admin sees how the shop is doing and
 * what needs attention; an author sees only the areas they may use, and their browser asks
 * nothing of the admin-only calls (which would answer 403).
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const role = useSession((session) => session.user?.role);
  const { features } = useAppConfig();
  const figures = hasPermission(role, 'statistics') && features.includes('billing');
  return (
    <AdminPage title={t('staff_stats.dashboard.title')}>
      {figures && <ShopFigures />}
      <AreaLinks />
    </AdminPage>
  );
}

function ShopFigures() {
  const { t } = useTranslation();
  // Today and the month so far, fixed when the page opens (UTC days, as the server counts).
  const [now] = useState(() => new Date());
  const range = monthToDate(now);
  const earnings = useQuery({
    queryKey: ['admin', 'statistics', 'earnings', range, 'day'],
    queryFn: ({ signal }) =>
      call(statisticsEndpoints.earnings, { query: { ...range, granularity: 'day' } }, { signal }),
  });
  const summary = useQuery({
    queryKey: ['admin', 'dashboard', 'summary'],
    queryFn: ({ signal }) => call(dashboardEndpoints.summary, {}, { signal }),
  });
  return (
    <>
      <Panel id="dashboard-revenue" title={t('staff_stats.dashboard.revenue')}>
        <QueryBlock query={earnings}>
          {(data) => <RevenueCards data={data} today={isoDay(now)} />}
        </QueryBlock>
      </Panel>
      <QueryBlock query={summary}>
        {(data) => (
          <>
            <SummaryFigures summary={data} />
            <FailedPayments attention={data.attention} />
          </>
        )}
      </QueryBlock>
      <LatestInvoices />
    </>
  );
}

/** Links into each area the signed-in staff member may open, as the menu offers them. */
function AreaLinks() {
  const { t } = useTranslation();
  const role = useSession((session) => session.user?.role);
  const { features } = useAppConfig();
  if (!role) return null;
  const entries = adminMenu(role, features).filter((entry) => entry.route !== 'admin.dashboard');
  const exportInvoices = hasPermission(role, 'commerce') && features.includes('billing');
  return (
    <Panel id="dashboard-areas" title={t('staff_stats.dashboard.areas')}>
      <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
        {entries.map((entry) => (
          <li key={entry.route}>
            <RouteLink
              name={entry.route}
              className="flex items-center gap-3 rounded-xl border border-slate-200 px-3 py-2 text-sm font-medium text-slate-800 hover:border-brand-300 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-500"
            >
              {t(entry.label)}
            </RouteLink>
          </li>
        ))}
        {exportInvoices && (
          <li>
            <RouteLink
              name="admin.invoices.export-pdf"
              className="flex items-center gap-3 rounded-xl border border-slate-200 px-3 py-2 text-sm font-medium text-slate-800 hover:border-brand-300 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-500"
            >
              {t('staff_stats.dashboard.export_invoices')}
            </RouteLink>
          </li>
        )}
      </ul>
    </Panel>
  );
}
