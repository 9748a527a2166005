import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useRoutePath } from '../../../layout/route-link.tsx';
import type { RouteName } from '../../../routes/route-table.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import type { RangeState } from './date-range.ts';
import { RangePicker } from './range-picker.tsx';
import { useStatsRange } from './use-stats-range.ts';

const SCREENS = [
  ['admin.statistics.earnings.overview', 'staff_stats.nav.earnings'],
  ['admin.statistics.subscriptions.overview', 'staff_stats.nav.subscriptions'],
  ['admin.statistics.analytics', 'staff_stats.nav.analytics'],
] as const satisfies readonly (readonly [RouteName, string])[];

/**
 * The frame of a statistics screen: its title, links to the other two (keeping the period),
 * the period picker, and what the page says about currencies.
 */
export function StatsFrame(props: {
  current: (typeof SCREENS)[number][0];
  title: string;
  granularity?: boolean;
  children: (state: RangeState) => ReactNode;
}) {
  const { t } = useTranslation();
  const { state, update } = useStatsRange();
  return (
    <AdminPage title={props.title}>
      <nav aria-label={t('staff_stats.nav.label')} className="-mt-2 flex flex-wrap gap-2">
        {SCREENS.map(([name, label]) => (
          <StatsTab key={name} name={name} current={name === props.current}>
            {t(label)}
          </StatsTab>
        ))}
      </nav>
      <RangePicker state={state} onChange={update} granularity={props.granularity} />
      {props.children(state)}
    </AdminPage>
  );
}

function StatsTab(props: { name: RouteName; current: boolean; children: ReactNode }) {
  const pathname = useRoutePath(props.name);
  // The period stays when moving between the statistics screens.
  const { search } = useLocation();
  return (
    <Link
      to={{ pathname, search }}
      aria-current={props.current ? 'page' : undefined}
      className={`rounded-full px-3 py-1 text-sm font-medium ${props.current ? 'bg-brand-600 text-white' : 'bg-slate-100 text-slate-700 hover:bg-slate-200'}`}
    >
      {props.children}
    </Link>
  );
}

/** Said wherever money of several currencies is shown. */
export function CurrencyNote() {
  const { t } = useTranslation();
  return <p className="text-sm text-slate-600">{t('staff_stats.currency_note')}</p>;
}

/** Which currency the charts show: each currency apart, never added together. */
export function CurrencyPicker(props: {
  currencies: readonly string[];
  value: string;
  onChange: (currency: string) => void;
}) {
  const { t } = useTranslation();
  if (props.currencies.length < 2) return null;
  return (
    <fieldset className="flex flex-wrap items-center gap-2">
      <legend className="sr-only">{t('staff_stats.currency')}</legend>
      <span aria-hidden="true" className="text-sm font-medium text-slate-800">
        {t('staff_stats.currency')}
      </span>
      {props.currencies.map((currency) => (
        <label
          key={currency}
          className={`cursor-pointer rounded-full px-3 py-1 text-sm font-medium has-focus-visible:outline-2 has-focus-visible:outline-brand-500 ${currency === props.value ? 'bg-slate-800 text-white' : 'bg-slate-100 text-slate-700 hover:bg-slate-200'}`}
        >
          <input
            type="radio"
            name="currency"
            value={currency}
            checked={currency === props.value}
            onChange={() => props.onChange(currency)}
            className="sr-only"
          />
          {currency}
        </label>
      ))}
    </fieldset>
  );
}
