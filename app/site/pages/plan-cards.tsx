import { useTranslation } from 'react-i18next';
import type { SitePricing } from '#shared/contracts/site.ts';
import { formatMoney } from '#shared/money.ts';
import { billingText } from '../../features/billing/order/plan-period.ts';
import { useSite } from '../site-context.ts';

/**
 * The order page's plans as cards (§3: monthly rate, old price, "Save N%", most popular);
 * each leads to the order page with the plan chosen.
 */
export function PlanCards({ pricing }: { pricing: SitePricing }) {
  const { t } = useTranslation();
  const { lang } = useSite();
  if (pricing.plans.length === 0) {
    return <p className="text-slate-600">{t('public_site.plans.empty')}</p>;
  }
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="site-plans">
      {pricing.plans.map((plan) => {
        const money = (amount: number) => formatMoney({ amount, currency: plan.currency }, lang);
        const headline = plan.as_monthly_rate ? plan.monthly_amount : plan.amount;
        return (
          <li
            key={plan.product_id}
            className={`relative flex flex-col rounded-2xl border bg-white p-5 pt-6 ${plan.as_most_selected ? 'border-brand-500 ring-1 ring-brand-500' : 'border-slate-200'}`}
          >
            {plan.as_most_selected && (
              <span className="absolute -top-3 left-5 rounded-full bg-brand-600 px-2.5 py-0.5 text-xs font-semibold text-white">
                {t('order.plan.most_popular')}
              </span>
            )}
            <span className="flex items-start justify-between gap-2">
              <h3 className="font-semibold text-slate-900">{plan.name}</h3>
              {plan.discounted_badge && plan.saving_percent > 0 && (
                <span className="shrink-0 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800">
                  {t('order.plan.save', { percent: plan.saving_percent })}
                </span>
              )}
            </span>
            <p className="mt-3 flex flex-wrap items-baseline gap-x-1.5">
              <span className="text-3xl font-semibold tracking-tight text-slate-900 tabular-nums">
                {money(headline)}
              </span>
              {plan.as_monthly_rate && (
                <span className="text-sm text-slate-600">{t('order.plan.per_month')}</span>
              )}
            </p>
            <p className="mt-1 flex-1 text-sm text-slate-600">
              {plan.amount_old !== null && plan.amount_old > plan.amount && (
                <>
                  <span className="sr-only">{t('order.plan.was')} </span>
                  <s className="mr-1.5">{money(plan.amount_old)}</s>
                </>
              )}
              {billingText(t, plan, lang)}
            </p>
            <a
              href={`${pricing.order_path}?plan=${plan.product_id}`}
              className={`mt-5 rounded-lg px-4 py-2.5 text-center text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 ${plan.as_most_selected ? 'bg-brand-600 text-white hover:bg-brand-700' : 'border border-brand-600 text-brand-700 hover:bg-brand-50'}`}
              aria-label={t('public_site.plans.choose', { name: plan.name })}
            >
              {t('layout.get')}
            </a>
          </li>
        );
      })}
    </ul>
  );
}
