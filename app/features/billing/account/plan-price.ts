import type { TFunction } from 'i18next';
import type { BillingInterval } from '#shared/billing/billing-values.ts';
import type { Lang } from '#shared/locales.ts';
import { formatMoney } from '#shared/money.ts';
import { durationText } from '../order/plan-period.ts';

const PER_INTERVAL: Record<BillingInterval, string> = {
  day: 'billing_account.price.per_day',
  week: 'billing_account.price.per_week',
  month: 'billing_account.price.per_month',
  year: 'billing_account.price.per_year',
};

export interface PricedPlan {
  amount: number;
  currency: string;
  /** None for a one-time plan. */
  interval: BillingInterval | null;
  interval_count: number;
}

/** "$9.99 per month", "€54.99 every 6 months", "$99.00 once". */
export function planPrice(t: TFunction, plan: PricedPlan, lang: Lang): string {
  const amount = formatMoney({ amount: plan.amount, currency: plan.currency }, lang);
  if (plan.interval === null) return t('billing_account.price.once', { amount });
  if (plan.interval_count === 1) return t(PER_INTERVAL[plan.interval], { amount });
  return t('billing_account.price.every', {
    amount,
    period: durationText(plan, lang),
  });
}
