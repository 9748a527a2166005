import type { TFunction } from 'i18next';
import type { ProductView } from '#shared/contracts/billing.ts';
import type { Lang } from '#shared/locales.ts';
import { formatMoney } from '#shared/money.ts';

type Period = Pick<ProductView, 'interval' | 'interval_count'>;

/** "12 months", "1 year", "6 мес…": Intl writes the plural of each language. */
export function durationText({ interval, interval_count }: Period, lang: Lang): string {
  return new Intl.NumberFormat(lang, {
    style: 'unit',
    unit: interval ?? 'month',
    unitDisplay: 'long',
  }).format(interval_count);
}

/** How often a plan renews: "yearly", "every 6 months". */
export function periodText(t: TFunction, period: Period, lang: Lang): string {
  const { interval, interval_count } = period;
  if (interval === null) return t('order.period.once');
  if (interval_count === 1) return t(`order.period.${interval}`);
  return t(`order.period.every_${interval}`, { duration: durationText(period, lang) });
}

/** The line under a plan's price: what is charged, and how often. */
export function billingText(t: TFunction, product: ProductView, lang: Lang): string {
  const amount = formatMoney({ amount: product.amount, currency: product.currency }, lang);
  if (product.onetime || product.interval === null) {
    return t('order.plan.onetime', { amount, duration: durationText(product, lang) });
  }
  return t('order.plan.billed', { amount, period: periodText(t, product, lang) });
}
