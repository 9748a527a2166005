import { useTranslation } from 'react-i18next';
import type { ProductView } from '#shared/contracts/billing.ts';
import type { Lang } from '#shared/locales.ts';
import { formatMoney } from '#shared/money.ts';
import { billingText } from './plan-period.ts';

export interface PlanListProps {
  plans: readonly ProductView[];
  /** Addons by id, to name the ones a plan includes. */
  addons: ReadonlyMap<number, ProductView>;
  value: number | undefined;
  onChange: (productId: number) => void;
  lang: Lang;
  disabled?: boolean;
}

/**
 * §3 Product as a plan card: the monthly rate when `as_monthly_rate` (with the billed total
 * beneath), the old price struck through, "Save N%" for `discounted_badge` and a ribbon for
 * `as_most_selected`. The cards are one radio group: arrow keys move between them.
 */
export function PlanList({ plans, addons, value, onChange, lang, disabled }: PlanListProps) {
  const { t } = useTranslation();
  return (
    <fieldset className="min-w-0">
      <legend className="mb-3 text-base font-semibold text-slate-900">
        {t('order.plans_legend')}
      </legend>
      <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" data-testid="plans">
        {plans.map((plan) => {
          const money = (amount: number) => formatMoney({ amount, currency: plan.currency }, lang);
          const checked = plan.product_id === value;
          const headline = plan.as_monthly_rate ? plan.monthly_amount : plan.amount;
          const included = plan.includable_product_id
            .map((id) => addons.get(id)?.name)
            .filter((name): name is string => Boolean(name));
          return (
            <label
              key={plan.product_id}
              data-testid={`plan-${plan.product_id}`}
              className={`relative flex min-w-0 cursor-pointer flex-col rounded-2xl border bg-white p-4 pt-5 shadow-sm transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-500 ${checked ? 'border-brand-500 ring-1 ring-brand-500' : 'border-slate-200 hover:border-slate-300'} ${disabled ? 'cursor-not-allowed opacity-60' : ''}`}
            >
              <input
                type="radio"
                name="plan"
                value={plan.product_id}
                checked={checked}
                disabled={disabled}
                onChange={() => onChange(plan.product_id)}
                // Over the whole card, unseen: the card is what is clicked and outlined.
                className="absolute inset-0 size-full cursor-pointer appearance-none rounded-2xl opacity-0"
              />
              {plan.as_most_selected && (
                <span className="absolute -top-2.5 left-4 rounded-full bg-brand-500 px-2.5 py-0.5 text-xs font-semibold text-white">
                  {t('order.plan.most_popular')}
                </span>
              )}
              <span className="flex items-start justify-between gap-2">
                <span className="min-w-0 font-semibold text-slate-900">{plan.name}</span>
                {plan.discounted_badge && plan.saving_percent > 0 && (
                  <span className="shrink-0 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-700">
                    {t('order.plan.save', { percent: plan.saving_percent })}
                  </span>
                )}
              </span>
              <span className="mt-3 flex flex-wrap items-baseline gap-x-1.5">
                <span className="text-2xl font-semibold tracking-tight text-slate-900 tabular-nums">
                  {money(headline)}
                </span>
                {plan.as_monthly_rate && (
                  <span className="text-sm text-slate-600">{t('order.plan.per_month')}</span>
                )}
              </span>
              <span className="mt-1 text-sm text-slate-600">
                {plan.amount_old !== null && plan.amount_old > plan.amount && (
                  <>
                    <span className="sr-only">{t('order.plan.was')} </span>
                    <s className="mr-1.5 text-slate-400">{money(plan.amount_old)}</s>
                  </>
                )}
                {billingText(t, plan, lang)}
              </span>
              {included.length > 0 && (
                <span className="mt-2 text-xs text-slate-600">
                  {t('order.plan.includes', { names: included.join(', ') })}
                </span>
              )}
              {plan.description && (
                <span className="mt-2 text-xs text-slate-500">{plan.description}</span>
              )}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
