import { useTranslation } from 'react-i18next';
import { RUNNING_STATUSES } from '#shared/contracts/admin/dashboard.ts';
import type {
  EarningsResponse,
  StatByCountryResponse,
  StatisticsRange,
  SubscriptionStatsResponse,
} from '#shared/contracts/admin/statistics.ts';
import { useLang } from '../../auth/use-lang.ts';
import { ChartFigures, type ChartRow, COLORS } from './chart-figures.tsx';
import { countFormat, countryName, moneyFormat, percentFormat } from './figures-format.ts';
import { QueryBlock } from './query-block.tsx';
import { useByCountry, useEarnings, useSubscriptionStats } from './stat-queries.ts';
import { CurrencyNote, StatsFrame } from './stats-frame.tsx';

const TOP_COUNTRIES = 12;

/**
 * §2 admin.statistics.analytics: the period at a glance. Ratios per currency, conversion and
 * churn over the range, and where the buyers are (payments counted, which adds up across
 * currencies; money per country stays per currency in the table).
 */
export function AnalyticsPage() {
  const { t } = useTranslation();
  return (
    <StatsFrame current="admin.statistics.analytics" title={t('staff_stats.analytics.title')}>
      {(state) => <Analytics range={state.range} />}
    </StatsFrame>
  );
}

function Analytics({ range }: { range: StatisticsRange | null }) {
  const earnings = useEarnings(range, 'month');
  const subscriptions = useSubscriptionStats(range);
  const countries = useByCountry(range);
  return (
    <>
      <QueryBlock query={subscriptions}>{(data) => <KeyFigures data={data} />}</QueryBlock>
      <QueryBlock query={earnings}>{(data) => <CurrencyRatios data={data} />}</QueryBlock>
      <QueryBlock query={countries}>{(data) => <Countries data={data} />}</QueryBlock>
    </>
  );
}

function KeyFigures({ data }: { data: SubscriptionStatsResponse }) {
  const { t } = useTranslation();
  const lang = useLang();
  const count = countFormat(lang);
  const percent = percentFormat(lang);
  const running = data.by_status
    .filter((row) => (RUNNING_STATUSES as readonly string[]).includes(row.status))
    .reduce((total, row) => total + row.count, 0);
  const started = data.conversions.reduce((total, row) => total + row.started, 0);
  const converted = data.conversions.reduce((total, row) => total + row.converted, 0);
  const atStart = data.churn.reduce((total, row) => total + row.active_at_start, 0);
  const churned = data.churn.reduce((total, row) => total + row.churned, 0);
  const figures = [
    ['running', count(running)],
    ['conversion', started > 0 ? percent(converted / started) : '—'],
    ['orders', count(started)],
    // Churned over subscriber-months: the average month's churn rate over the range.
    ['churn', atStart > 0 ? percent(churned / atStart) : '—'],
  ] as const;
  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {figures.map(([key, value]) => (
        <div key={key} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
          <dt className="text-sm font-semibold text-slate-600">
            {t(`staff_stats.analytics.figures.${key}`)}
          </dt>
          <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function CurrencyRatios({ data }: { data: EarningsResponse }) {
  const { t } = useTranslation();
  const lang = useLang();
  const count = countFormat(lang);
  const percent = percentFormat(lang);
  if (data.currencies.length === 0) return null;
  const headers = ['payments', 'gross', 'average', 'refund_rate', 'net'] as const;
  return (
    <section className="flex flex-col gap-2">
      <div className="relative overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm">
        <table className="w-full text-left text-sm">
          <caption className="px-4 pt-4 text-left text-base font-semibold text-slate-900">
            {t('staff_stats.analytics.per_currency')}
          </caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                {t('staff_stats.currency')}
              </th>
              {headers.map((key) => (
                <th key={key} scope="col" className="px-4 py-3 text-right font-semibold">
                  {t(`staff_stats.analytics.columns.${key}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {data.currencies.map((row) => {
              const money = moneyFormat(row.currency, lang);
              return (
                <tr key={row.currency}>
                  <th scope="row" className="px-4 py-3 font-medium">
                    {row.currency}
                  </th>
                  <td className="px-4 py-3 text-right tabular-nums">{count(row.payments)}</td>
                  <td className="px-4 py-3 text-right tabular-nums">{money(row.gross)}</td>
                  <td className="px-4 py-3 text-right tabular-nums">
                    {row.payments > 0 ? money(Math.round(row.gross / row.payments)) : '—'}
                  </td>
                  <td className="px-4 py-3 text-right tabular-nums">
                    {row.gross > 0 ? percent(row.refunds / row.gross) : '—'}
                  </td>
                  <td className="px-4 py-3 text-right tabular-nums">{money(row.net)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <CurrencyNote />
    </section>
  );
}

function Countries({ data }: { data: StatByCountryResponse }) {
  const { t } = useTranslation();
  const lang = useLang();
  const count = countFormat(lang);
  const unknown = t('staff_stats.country_unknown');
  const payments = new Map<string, number>();
  for (const row of data.items) {
    const name = countryName(row.country, lang, unknown);
    payments.set(name, (payments.get(name) ?? 0) + row.payments);
  }
  const chartRows: ChartRow[] = [...payments]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP_COUNTRIES)
    .map(([country, value]) => ({ country, payments: value }));
  const tableRows = [...data.items].sort(
    (a, b) => b.payments - a.payments || a.currency.localeCompare(b.currency),
  );
  return (
    <>
      <ChartFigures
        title={t('staff_stats.analytics.payments_by_country')}
        note={t('staff_stats.analytics.payments_note')}
        categoryLabel={t('staff_stats.country')}
        rows={chartRows}
        category="country"
        series={[
          {
            key: 'payments',
            label: t('staff_stats.takings.payments'),
            color: COLORS.blue,
          },
        ]}
        format={count}
      />
      {tableRows.length > 0 && (
        <div className="relative max-h-[32rem] overflow-auto rounded-2xl border border-slate-200 bg-white shadow-sm">
          <table className="w-full text-left text-sm">
            <caption className="px-4 pt-4 text-left text-base font-semibold text-slate-900">
              {t('staff_stats.analytics.country_table')}
            </caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600 uppercase">
              <tr>
                {(['country', 'currency', 'payments', 'gross', 'refunds', 'net'] as const).map(
                  (key, index) => (
                    <th
                      key={key}
                      scope="col"
                      className={`px-4 py-3 font-semibold ${index > 1 ? 'text-right' : ''}`}
                    >
                      {t(`staff_stats.analytics.country_columns.${key}`)}
                    </th>
                  ),
                )}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {tableRows.map((row) => {
                const money = moneyFormat(row.currency, lang);
                return (
                  <tr key={`${row.country}-${row.currency}`}>
                    <th scope="row" className="px-4 py-2 font-medium">
                      {countryName(row.country, lang, unknown)}
                    </th>
                    <td className="px-4 py-2">{row.currency}</td>
                    <td className="px-4 py-2 text-right tabular-nums">{count(row.payments)}</td>
                    <td className="px-4 py-2 text-right tabular-nums">{money(row.gross)}</td>
                    <td className="px-4 py-2 text-right tabular-nums">{money(row.refunds)}</td>
                    <td className="px-4 py-2 text-right tabular-nums">{money(row.net)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
