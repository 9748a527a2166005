import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  MrrResponse,
  StatisticsRange,
  SubscriptionStatsResponse,
} from '#shared/contracts/admin/statistics.ts';
import { Panel } from '../../../ui/panel.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { SubscriptionsPanel } from '../sales/subscriptions-panel.tsx';
import { ChartFigures, type ChartRow, COLORS } from './chart-figures.tsx';
import { monthLabel } from './date-range.ts';
import { countFormat, moneyAxisFormat, moneyFormat, percentFormat } from './figures-format.ts';
import { MrrCards } from './mrr-cards.tsx';
import { everyPeriod, monthsOf } from './periods.ts';
import { QueryBlock } from './query-block.tsx';
import { useMrr, useSubscriptionStats } from './stat-queries.ts';
import { CurrencyNote, CurrencyPicker, StatsFrame } from './stats-frame.tsx';

/**
 * §2 /admin/statistics/subscriptions/overview: MRR and how it moved, subscriptions by status
 * and plan, first payments and churn by month.
 */
export function SubscriptionsStatsPage() {
  const { t } = useTranslation();
  return (
    <StatsFrame
      current="admin.statistics.subscriptions.overview"
      title={t('staff_stats.subscriptions.title')}
    >
      {(state) => (
        <>
          <MrrSection range={state.range} />
          <SubscriptionCounts range={state.range} />
          <Panel title={t('staff_stats.subscriptions.list')}>
            <SubscriptionsPanel />
          </Panel>
        </>
      )}
    </StatsFrame>
  );
}

/** Money moving MRR down is drawn below the axis, so one bar shows the month's whole move. */
const MOVES = [
  ['new', COLORS.green, 1],
  ['expansion', COLORS.cyan, 1],
  ['reactivation', COLORS.violet, 1],
  ['contraction', COLORS.amber, -1],
  ['churn', COLORS.red, -1],
] as const;

function MrrSection(props: { range: StatisticsRange | null }) {
  const mrr = useMrr(props.range);
  const [picked, setPicked] = useState<string | null>(null);
  return (
    <QueryBlock query={mrr}>
      {(data) => {
        const currencies = [...new Set(data.months.map((row) => row.currency))].sort();
        const currency = picked && currencies.includes(picked) ? picked : (currencies[0] ?? '');
        return (
          <>
            <MrrCards data={data} />
            {currencies.length > 1 && <CurrencyNote />}
            <CurrencyPicker currencies={currencies} value={currency} onChange={setPicked} />
            <MrrCharts data={data} currency={currency} range={props.range as StatisticsRange} />
          </>
        );
      }}
    </QueryBlock>
  );
}

function MrrCharts(props: { data: MrrResponse; currency: string; range: StatisticsRange }) {
  const { t } = useTranslation();
  const lang = useLang();
  const empty = (month: string) => ({
    month,
    currency: props.currency,
    mrr: 0,
    new: 0,
    expansion: 0,
    contraction: 0,
    churn: 0,
    reactivation: 0,
  });
  const months = everyPeriod(
    monthsOf(props.range),
    props.data.months.filter((row) => row.currency === props.currency),
    (row) => row.month,
    empty,
  );
  const money = moneyFormat(props.currency, lang);
  const axis = moneyAxisFormat(props.currency, lang);
  const hasAny = props.currency !== '';
  const mrrRows: ChartRow[] = hasAny
    ? months.map((row) => ({ month: monthLabel(row.month, lang), mrr: row.mrr }))
    : [];
  const moveRows: ChartRow[] = hasAny
    ? months.map((row) => {
        const out: ChartRow = { month: monthLabel(row.month, lang) };
        for (const [key, , sign] of MOVES) out[key] = sign * Math.abs(row[key]);
        return out;
      })
    : [];
  return (
    <div className="grid gap-6 xl:grid-cols-2 [&>*]:min-w-0">
      <ChartFigures
        title={t('staff_stats.subscriptions.mrr_chart', { currency: props.currency })}
        categoryLabel={t('staff_stats.month')}
        rows={mrrRows}
        category="month"
        series={[
          {
            key: 'mrr',
            label: t('staff_stats.subscriptions.mrr'),
            color: COLORS.blue,
            kind: 'line',
          },
        ]}
        format={money}
        axisFormat={axis}
      />
      <ChartFigures
        title={t('staff_stats.subscriptions.movement_chart', { currency: props.currency })}
        note={t('staff_stats.subscriptions.movement_note')}
        categoryLabel={t('staff_stats.month')}
        rows={moveRows}
        category="month"
        series={MOVES.map(([key, color]) => ({
          key,
          label: t(`staff_stats.subscriptions.moves.${key}`),
          color,
          stack: 'move',
        }))}
        format={money}
        axisFormat={axis}
      />
    </div>
  );
}

function SubscriptionCounts(props: { range: StatisticsRange | null }) {
  const stats = useSubscriptionStats(props.range);
  return (
    <QueryBlock query={stats}>
      {(data) => <SubscriptionCharts data={data} range={props.range as StatisticsRange} />}
    </QueryBlock>
  );
}

function SubscriptionCharts(props: { data: SubscriptionStatsResponse; range: StatisticsRange }) {
  const { t } = useTranslation();
  const lang = useLang();
  const count = countFormat(lang);
  const percent = percentFormat(lang);
  const { data } = props;
  const months = monthsOf(props.range);
  const statusRows: ChartRow[] = data.by_status
    .filter((row) => row.count > 0)
    .map((row) => ({ status: t(`staff_stats.statuses.${row.status}`), count: row.count }));
  const planRows: ChartRow[] = [...data.by_plan]
    .sort((a, b) => b.count - a.count)
    .map((row) => ({ plan: `${row.name} · ${row.currency}`, count: row.count }));
  const conversions = everyPeriod(
    months,
    data.conversions,
    (row) => row.month,
    (month) => ({ month, started: 0, converted: 0 }),
  );
  const conversionRows: ChartRow[] = conversions.map((row) => ({
    month: monthLabel(row.month, lang),
    started: row.started,
    converted: row.converted,
    rate: row.started > 0 ? row.converted / row.started : 0,
  }));
  const churnRows: ChartRow[] = everyPeriod(
    months,
    data.churn,
    (row) => row.month,
    (month) => ({ month, active_at_start: 0, churned: 0, rate: 0 }),
  ).map((row) => ({
    month: monthLabel(row.month, lang),
    rate: row.rate,
    active_at_start: row.active_at_start,
    churned: row.churned,
  }));
  return (
    <div className="grid gap-6 xl:grid-cols-2 [&>*]:min-w-0">
      <ChartFigures
        title={t('staff_stats.subscriptions.by_status')}
        note={t('staff_stats.subscriptions.now_note')}
        categoryLabel={t('staff_stats.status')}
        rows={statusRows}
        category="status"
        series={[{ key: 'count', label: t('staff_stats.subscriptions.count'), color: COLORS.blue }]}
        format={count}
      />
      <ChartFigures
        title={t('staff_stats.subscriptions.by_plan')}
        note={t('staff_stats.subscriptions.now_note')}
        categoryLabel={t('staff_stats.plan')}
        rows={planRows}
        category="plan"
        series={[
          { key: 'count', label: t('staff_stats.subscriptions.count'), color: COLORS.violet },
        ]}
        format={count}
      />
      <ChartFigures
        title={t('staff_stats.subscriptions.conversions')}
        note={t('staff_stats.subscriptions.conversions_note')}
        categoryLabel={t('staff_stats.month')}
        rows={conversionRows}
        category="month"
        series={[
          { key: 'started', label: t('staff_stats.subscriptions.started'), color: COLORS.slate },
          {
            key: 'converted',
            label: t('staff_stats.subscriptions.converted'),
            color: COLORS.green,
          },
          {
            key: 'rate',
            label: t('staff_stats.subscriptions.conversion_rate'),
            color: COLORS.green,
            format: percent,
            tableOnly: true,
          },
        ]}
        format={count}
      />
      <ChartFigures
        title={t('staff_stats.subscriptions.churn')}
        note={t('staff_stats.subscriptions.churn_note')}
        categoryLabel={t('staff_stats.month')}
        rows={churnRows}
        category="month"
        series={[
          {
            key: 'rate',
            label: t('staff_stats.subscriptions.churn_rate'),
            color: COLORS.red,
            kind: 'line',
          },
          {
            key: 'active_at_start',
            label: t('staff_stats.subscriptions.active_at_start'),
            color: COLORS.slate,
            format: count,
            tableOnly: true,
          },
          {
            key: 'churned',
            label: t('staff_stats.subscriptions.churned'),
            color: COLORS.red,
            format: count,
            tableOnly: true,
          },
        ]}
        format={percent}
      />
    </div>
  );
}
