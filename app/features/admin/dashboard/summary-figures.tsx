import { useTranslation } from 'react-i18next';
import type { DashboardSummary } from '#shared/contracts/admin/dashboard.ts';
import { RouteLink } from '../../../layout/route-link.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { countFormat } from '../statistics/figures-format.ts';

/** Running subscriptions by status and new customers, as a few big figures. */
export function SummaryFigures({ summary }: { summary: DashboardSummary }) {
  const { t } = useTranslation();
  const count = countFormat(useLang());
  const active = summary.subscriptions.find((row) => row.status === 'active')?.count ?? 0;
  const others = summary.subscriptions.filter((row) => row.status !== 'active' && row.count > 0);
  return (
    <dl className="grid gap-4 sm:grid-cols-3">
      <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <dt className="text-sm font-semibold text-slate-600">
          {t('staff_stats.dashboard.active_subscriptions')}
        </dt>
        <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">{count(active)}</dd>
        {others.length > 0 && (
          <dd className="mt-1 text-xs text-slate-600">
            {others
              .map((row) => `${t(`staff_stats.statuses.${row.status}`)}: ${count(row.count)}`)
              .join(' · ')}
          </dd>
        )}
        <dd className="mt-2 text-sm">
          <RouteLink
            name="admin.statistics.subscriptions.overview"
            className="font-medium text-brand-700 hover:underline"
          >
            {t('staff_stats.dashboard.see_subscriptions')}
          </RouteLink>
        </dd>
      </div>
      <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <dt className="text-sm font-semibold text-slate-600">
          {t('staff_stats.dashboard.new_today')}
        </dt>
        <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">
          {count(summary.new_customers.today)}
        </dd>
      </div>
      <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <dt className="text-sm font-semibold text-slate-600">
          {t('staff_stats.dashboard.new_month')}
        </dt>
        <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">
          {count(summary.new_customers.month)}
        </dd>
      </div>
    </dl>
  );
}
