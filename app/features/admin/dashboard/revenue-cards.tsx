import { useTranslation } from 'react-i18next';
import type { EarningsResponse } from '#shared/contracts/admin/statistics.ts';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { moneyFormat } from '../statistics/figures-format.ts';
import { byPayments } from '../statistics/takings-cards.tsx';

/**
 * Today's and this month's takings, one card a currency: amounts of two currencies are never
 * added together (there is no conversion), and the page says so.
 */
export function RevenueCards({ data, today }: { data: EarningsResponse; today: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  if (data.currencies.length === 0) {
    return <EmptyState title={t('staff_stats.dashboard.no_revenue')} />;
  }
  const currencies = byPayments(data.currencies);
  return (
    <div className="flex flex-col gap-3">
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {currencies.map((row) => {
          const money = moneyFormat(row.currency, lang);
          const day = row.series.find((point) => point.period === today);
          return (
            <li
              key={row.currency}
              data-currency={row.currency}
              className="rounded-xl border border-slate-200 p-4"
            >
              <h3 className="text-sm font-semibold text-slate-600">{row.currency}</h3>
              <dl className="mt-2 grid grid-cols-2 gap-3">
                <div>
                  <dt className="text-xs text-slate-600">{t('staff_stats.dashboard.today')}</dt>
                  <dd className="text-xl font-semibold text-slate-900 tabular-nums">
                    {money(day?.gross ?? 0)}
                  </dd>
                </div>
                <div>
                  <dt className="text-xs text-slate-600">{t('staff_stats.dashboard.month')}</dt>
                  <dd className="text-xl font-semibold text-slate-900 tabular-nums">
                    {money(row.gross)}
                  </dd>
                </div>
                <div>
                  <dt className="text-xs text-slate-600">{t('staff_stats.takings.refunds')}</dt>
                  <dd className="text-sm font-medium text-slate-900 tabular-nums">
                    {money(row.refunds)}
                  </dd>
                </div>
                <div>
                  <dt className="text-xs text-slate-600">{t('staff_stats.takings.net')}</dt>
                  <dd className="text-sm font-medium text-slate-900 tabular-nums">
                    {money(row.net)}
                  </dd>
                </div>
              </dl>
            </li>
          );
        })}
      </ul>
      {currencies.length > 1 && (
        <p className="text-sm text-slate-600">{t('staff_stats.currency_note')}</p>
      )}
    </div>
  );
}
