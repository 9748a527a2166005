import { useTranslation } from 'react-i18next';
import type { MrrResponse } from '#shared/contracts/admin/statistics.ts';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { moneyFormat } from './figures-format.ts';

/** Each currency's MRR at the end of the range, and how much it gained and lost in it. */
export function MrrCards({ data }: { data: MrrResponse }) {
  const { t } = useTranslation();
  const lang = useLang();
  const currencies = [...new Set(data.months.map((row) => row.currency))].sort();
  if (currencies.length === 0) {
    return (
      <EmptyState
        title={t('staff_stats.subscriptions.no_mrr')}
        text={t('staff_stats.subscriptions.no_mrr_text')}
      />
    );
  }
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {currencies.map((currency) => {
        const months = data.months
          .filter((row) => row.currency === currency)
          .sort((a, b) => a.month.localeCompare(b.month));
        const last = months.at(-1);
        const sum = (pick: (row: (typeof months)[number]) => number) =>
          months.reduce((total, row) => total + Math.abs(pick(row)), 0);
        const gained =
          sum((row) => row.new) + sum((row) => row.expansion) + sum((row) => row.reactivation);
        const lost = sum((row) => row.contraction) + sum((row) => row.churn);
        const money = moneyFormat(currency, lang);
        return (
          <li
            key={currency}
            className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
            data-currency={currency}
          >
            <h3 className="text-sm font-semibold text-slate-600">
              {t('staff_stats.subscriptions.mrr')} · {currency}
            </h3>
            <p className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">
              {money(last?.mrr ?? 0)}
            </p>
            <dl className="mt-3 grid grid-cols-2 gap-2 text-xs text-slate-600">
              <div>
                <dt>{t('staff_stats.subscriptions.gained')}</dt>
                <dd className="font-medium text-green-700 tabular-nums">+{money(gained)}</dd>
              </div>
              <div>
                <dt>{t('staff_stats.subscriptions.lost')}</dt>
                <dd className="font-medium text-red-700 tabular-nums">−{money(lost)}</dd>
              </div>
            </dl>
          </li>
        );
      })}
    </ul>
  );
}
