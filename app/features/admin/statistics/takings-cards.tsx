import { useTranslation } from 'react-i18next';
import type { Takings } from '#shared/contracts/admin/statistics.ts';
import { useLang } from '../../auth/use-lang.ts';
import { countFormat, moneyFormat } from './figures-format.ts';

/**
 * Currencies in the order of how often they were paid in: their amounts do not compare, the
 * number of payments does.
 */
export function byPayments<T extends Takings>(takings: readonly T[]): T[] {
  return [...takings].sort(
    (a, b) => b.payments - a.payments || a.currency.localeCompare(b.currency),
  );
}

/** Takings of each currency as figures: one card a currency, never one total of them all. */
export function TakingsCards(props: { takings: readonly Takings[]; heading?: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  const count = countFormat(lang);
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {props.takings.map((row) => {
        const money = moneyFormat(row.currency, lang);
        return (
          <li
            key={row.currency}
            className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
            data-currency={row.currency}
          >
            <h3 className="text-sm font-semibold text-slate-600">
              {props.heading ? `${props.heading} · ${row.currency}` : row.currency}
            </h3>
            <p className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">
              <span className="sr-only">{t('staff_stats.takings.net')}: </span>
              {money(row.net)}
            </p>
            <dl className="mt-3 grid grid-cols-3 gap-2 text-xs text-slate-600">
              <div>
                <dt>{t('staff_stats.takings.gross')}</dt>
                <dd className="font-medium text-slate-900 tabular-nums">{money(row.gross)}</dd>
              </div>
              <div>
                <dt>{t('staff_stats.takings.refunds')}</dt>
                <dd className="font-medium text-slate-900 tabular-nums">{money(row.refunds)}</dd>
              </div>
              <div>
                <dt>{t('staff_stats.takings.payments')}</dt>
                <dd className="font-medium text-slate-900 tabular-nums">{count(row.payments)}</dd>
              </div>
            </dl>
          </li>
        );
      })}
    </ul>
  );
}
