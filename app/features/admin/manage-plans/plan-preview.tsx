import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { monthlyRate, savingPercent } from '#shared/billing/pricing.ts';
import type { AdminProduct } from '#shared/contracts/admin/products.ts';
import type { Lang } from '#shared/locales.ts';
import { formatMoney } from '#shared/money.ts';

export interface PreviewFlags {
  as_most_selected: boolean;
  as_monthly_rate: boolean;
  discounted_badge: boolean;
  amount_old: number | null;
}

/** "12 months", "1 year": Intl writes each language's plural. */
function durationText(product: AdminProduct, lang: Lang): string {
  return new Intl.NumberFormat(lang, {
    style: 'unit',
    unit: product.interval ?? 'month',
    unitDisplay: 'long',
  }).format(product.interval_count);
}

function billingText(t: TFunction, product: AdminProduct, lang: Lang): string {
  const amount = formatMoney(product, lang);
  if (product.onetime || product.interval === null) {
    return t('staff_plans.preview.onetime', { amount, duration: durationText(product, lang) });
  }
  const period =
    product.interval_count === 1
      ? t(`staff_plans.period.${product.interval}`)
      : t(`staff_plans.period.every_${product.interval}`, {
          duration: durationText(product, lang),
        });
  return t('staff_plans.preview.billed', { amount, period });
}

/**
 * A plan as the order page will draw it with the flags being set (app/features/billing/
 * order/plan-list.tsx): monthly rate or price, the old price struck through, "Save N%" and
 * the most selected ribbon.
 */
export function PlanPreview({
  product,
  flags,
  included,
  lang,
}: {
  product: AdminProduct;
  flags: PreviewFlags;
  included: readonly string[];
  lang: Lang;
}) {
  const { t } = useTranslation();
  const money = (amount: number) => formatMoney({ amount, currency: product.currency }, lang);
  const headline = flags.as_monthly_rate
    ? monthlyRate(product.amount, product.interval, product.interval_count)
    : product.amount;
  const saving = savingPercent(product.amount, flags.amount_old);
  const offSale = !product.visible || product.disabled;
  return (
    <div className={`flex min-w-0 flex-col ${offSale ? 'opacity-70' : ''}`}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0 font-semibold text-slate-900" data-testid="plan-name">
          {product.name}
        </span>
        {flags.as_most_selected && (
          <span className="rounded-full bg-brand-500 px-2.5 py-0.5 text-xs font-semibold text-white">
            {t('staff_plans.preview.most_popular')}
          </span>
        )}
        {flags.discounted_badge && saving > 0 && (
          <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-700">
            {t('staff_plans.preview.save', { percent: saving })}
          </span>
        )}
        {!product.visible && <Tag text={t('staff_plans.hidden')} />}
        {product.disabled && <Tag text={t('staff_plans.disabled')} />}
      </div>
      <div className="mt-1 flex flex-wrap items-baseline gap-x-1.5">
        <span className="text-xl font-semibold tracking-tight text-slate-900 tabular-nums">
          {money(headline)}
        </span>
        {flags.as_monthly_rate && (
          <span className="text-sm text-slate-600">{t('staff_plans.preview.per_month')}</span>
        )}
      </div>
      <div className="text-sm text-slate-600">
        {flags.amount_old !== null && flags.amount_old > product.amount && (
          <>
            <span className="sr-only">{t('staff_plans.preview.was')} </span>
            <s className="mr-1.5 text-slate-400">{money(flags.amount_old)}</s>
          </>
        )}
        {billingText(t, product, lang)}
      </div>
      {included.length > 0 && (
        <div className="mt-1 text-xs text-slate-600">
          {t('staff_plans.preview.includes', { names: included.join(', ') })}
        </div>
      )}
    </div>
  );
}

function Tag({ text }: { text: string }) {
  return (
    <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">
      {text}
    </span>
  );
}
