import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  EarningsResponse,
  StatByCountryResponse,
  StatisticsRange,
} from '#shared/contracts/admin/statistics.ts';
import type { Lang } from '#shared/locales.ts';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { InvoicesPanel } from '../sales/invoices-panel.tsx';
import { ChartFigures, type ChartRow, COLORS } from './chart-figures.tsx';
import { type Granularity, periodLabel } from './date-range.ts';
import { countryName, moneyAxisFormat, moneyFormat } from './figures-format.ts';
import { everyPeriod, periodsOf } from './periods.ts';
import { QueryBlock } from './query-block.tsx';
import { useByCountry, useEarnings } from './stat-queries.ts';
import { CurrencyNote, CurrencyPicker, StatsFrame } from './stats-frame.tsx';
import { byPayments, TakingsCards } from './takings-cards.tsx';

/** The countries a chart names one by one; the rest are one bar. */
const TOP_COUNTRIES = 12;

/** §2 /admin/statistics/earnings/overview: takings by day or month, gateway and country. */
export function EarningsPage() {
  const { t } = useTranslation();
  return (
    <StatsFrame
      current="admin.statistics.earnings.overview"
      title={t('staff_stats.earnings.title')}
      granularity
    >
      {(state) => (
        <>
          <Earnings range={state.range} granularity={state.granularity} />
          <Panel title={t('staff_stats.earnings.invoices')}>
            <InvoicesPanel />
          </Panel>
        </>
      )}
    </StatsFrame>
  );
}

function Earnings(props: { range: StatisticsRange | null; granularity: Granularity }) {
  const { t } = useTranslation();
  const earnings = useEarnings(props.range, props.granularity);
  const byCountry = useByCountry(props.range);
  const [picked, setPicked] = useState<string | null>(null);
  return (
    <QueryBlock query={earnings}>
      {(data) => {
        if (data.currencies.length === 0) {
          return (
            <EmptyState
              title={t('staff_stats.earnings.empty')}
              text={t('staff_stats.earnings.empty_text')}
            />
          );
        }
        // The currency paid in most often comes first (amounts of two currencies do not
        // compare); each is shown on its own.
        const ordered = byPayments(data.currencies);
        const currencies = ordered.map((row) => row.currency);
        const currency = picked && currencies.includes(picked) ? picked : (currencies[0] ?? '');
        return (
          <>
            <TakingsCards takings={ordered} />
            <CurrencyNote />
            <CurrencyPicker currencies={currencies} value={currency} onChange={setPicked} />
            <div className="grid gap-6 xl:grid-cols-2 [&>*]:min-w-0">
              <TakingsChart
                data={data}
                currency={currency}
                range={props.range as StatisticsRange}
                granularity={props.granularity}
              />
              <GatewayChart data={data} currency={currency} />
            </div>
            <QueryBlock query={byCountry}>
              {(countries) => <CountryChart data={countries} currency={currency} />}
            </QueryBlock>
          </>
        );
      }}
    </QueryBlock>
  );
}

function useTakingsSeries() {
  const { t } = useTranslation();
  return [
    { key: 'gross', label: t('staff_stats.takings.gross'), color: COLORS.green },
    { key: 'refunds', label: t('staff_stats.takings.refunds'), color: COLORS.red },
    { key: 'net', label: t('staff_stats.takings.net'), color: COLORS.blue, kind: 'line' as const },
  ];
}

function TakingsChart(props: {
  data: EarningsResponse;
  currency: string;
  range: StatisticsRange;
  granularity: Granularity;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const series = useTakingsSeries();
  const own = props.data.currencies.find((row) => row.currency === props.currency);
  const month = props.granularity === 'month';
  const keyOf = (period: string) => (month ? period.slice(0, 7) : period);
  const rows: ChartRow[] = everyPeriod(
    periodsOf(props.range, props.granularity).map(keyOf),
    own?.series ?? [],
    (row) => keyOf(row.period),
    (period) => ({ period, gross: 0, refunds: 0, net: 0, payments: 0 }),
  ).map((row) => ({
    period: periodLabel(keyOf(row.period), props.granularity, lang),
    gross: row.gross,
    refunds: row.refunds,
    net: row.net,
  }));
  return (
    <ChartFigures
      title={t(month ? 'staff_stats.earnings.by_month' : 'staff_stats.earnings.by_day', {
        currency: props.currency,
      })}
      categoryLabel={t(month ? 'staff_stats.month' : 'staff_stats.day')}
      rows={rows}
      category="period"
      series={series}
      format={moneyFormat(props.currency, lang)}
      axisFormat={moneyAxisFormat(props.currency, lang)}
    />
  );
}

function GatewayChart(props: { data: EarningsResponse; currency: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  const series = useTakingsSeries();
  const rows: ChartRow[] = props.data.by_gateway
    .filter((row) => row.currency === props.currency)
    .sort((a, b) => b.gross - a.gross)
    .map((row) => ({
      gateway: t(`staff_stats.gateways.${row.gateway}`),
      gross: row.gross,
      refunds: row.refunds,
      net: row.net,
    }));
  return (
    <ChartFigures
      title={t('staff_stats.earnings.by_gateway', { currency: props.currency })}
      categoryLabel={t('staff_stats.gateway')}
      rows={rows}
      category="gateway"
      series={series.map((line) => ({ ...line, kind: 'bar' as const }))}
      format={moneyFormat(props.currency, lang)}
      axisFormat={moneyAxisFormat(props.currency, lang)}
    />
  );
}

/** Net takings per country in one currency: the biggest by name, the rest together. */
export function countryRows(
  data: StatByCountryResponse,
  currency: string,
  lang: Lang,
  words: { unknown: string; others: string },
): ChartRow[] {
  const own = data.items.filter((row) => row.currency === currency).sort((a, b) => b.net - a.net);
  const rows: ChartRow[] = own.slice(0, TOP_COUNTRIES).map((row) => ({
    country: countryName(row.country, lang, words.unknown),
    gross: row.gross,
    refunds: row.refunds,
    net: row.net,
  }));
  const rest = own.slice(TOP_COUNTRIES);
  if (rest.length > 0) {
    const sum = (pick: (row: (typeof rest)[number]) => number) =>
      rest.reduce((total, row) => total + pick(row), 0);
    rows.push({
      country: words.others,
      gross: sum((row) => row.gross),
      refunds: sum((row) => row.refunds),
      net: sum((row) => row.net),
    });
  }
  return rows;
}

function CountryChart(props: { data: StatByCountryResponse; currency: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  const series = useTakingsSeries();
  const rows = countryRows(props.data, props.currency, lang, {
    unknown: t('staff_stats.country_unknown'),
    others: t('staff_stats.country_others'),
  });
  return (
    <ChartFigures
      title={t('staff_stats.earnings.by_country', { currency: props.currency })}
      categoryLabel={t('staff_stats.country')}
      rows={rows}
      category="country"
      series={series.map((line) => ({ ...line, kind: 'bar' as const }))}
      format={moneyFormat(props.currency, lang)}
      axisFormat={moneyAxisFormat(props.currency, lang)}
    />
  );
}
