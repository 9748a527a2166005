import { useTranslation } from 'react-i18next';
import type { VpnUsage } from '#shared/contracts/vpn.ts';
import { type PluralForms, pluralKey } from '../../i18n/plural.ts';
import { formatBytes } from '../../lib/traffic-format.ts';
import { useLang } from '../auth/use-lang.ts';
import { formatVpnDate, usageFraction } from './vpn-format.ts';

const COUNT: PluralForms = {
  one: 'vpn.devices.count.one',
  few: 'vpn.devices.count.few',
  many: 'vpn.devices.count.many',
  other: 'vpn.devices.count.other',
};

/** "3 of 10 devices": the plural follows the limit, the number the noun stands with. */
export function useDeviceCount(): (count: number, limit: number) => string {
  const { t } = useTranslation();
  const lang = useLang();
  return (count, limit) => t(pluralKey(COUNT, limit, lang), { n: count, limit });
}

/**
 * The billing period's traffic against staff's limit: a meter with the amounts in words (the
 * colour only repeats what the text says), and the day the count resets.
 */
export function UsageSummary({ usage, className = '' }: { usage: VpnUsage; className?: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  const used = formatBytes(usage.used_bytes, lang);
  const resets = t('vpn.usage.resets', { date: formatVpnDate(usage.period_end, lang) });
  if (usage.limit_bytes === null) {
    return (
      <div className={`text-sm ${className}`} data-testid="vpn-usage">
        <p className="font-medium text-slate-900">{t('vpn.usage.used_unlimited', { used })}</p>
        <p className="mt-0.5 text-slate-600">{resets}</p>
      </div>
    );
  }
  const text = t('vpn.usage.used', { used, limit: formatBytes(usage.limit_bytes, lang) });
  const fraction = usage.limit_reached ? 1 : usageFraction(usage.used_bytes, usage.limit_bytes);
  const percent = Math.round(fraction * 100);
  const tone = usage.limit_reached
    ? 'bg-red-600'
    : fraction >= 0.8
      ? 'bg-amber-500'
      : 'bg-brand-500';
  return (
    <div className={`text-sm ${className}`} data-testid="vpn-usage">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-0.5">
        <p className="font-medium text-slate-900">{text}</p>
        <p className="text-slate-600">{resets}</p>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a native <meter> cannot be styled alike in every browser; the role carries the same values */}
      <div
        role="meter"
        aria-label={t('vpn.usage.bar_label')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
        className="mt-2 h-2.5 w-full overflow-hidden rounded-full bg-slate-100"
      >
        <div className={`h-full rounded-full ${tone}`} style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
