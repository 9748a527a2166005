import { useTranslation } from 'react-i18next';
import type { AdminProduct } from '#shared/contracts/admin/products.ts';
import type { Lang } from '#shared/locales.ts';
import { formatMoney } from '#shared/money.ts';

/** The price and what it buys: "$9.99 · 1 × month", a one-time one said so. */
export function ProductPrice({ product, lang }: { product: AdminProduct; lang: Lang }) {
  const { t } = useTranslation();
  const period = product.interval
    ? `${product.interval_count} × ${t(`staff_catalog.intervals.${product.interval}`)}`
    : '';
  return (
    <span className="whitespace-nowrap">
      {formatMoney({ amount: product.amount, currency: product.currency }, lang)}
      {period && <span className="text-slate-500"> · {period}</span>}
      {product.onetime && (
        <span className="text-slate-500"> · {t('staff_catalog.fields.onetime')}</span>
      )}
    </span>
  );
}

const BADGE = 'inline-flex rounded-full px-2 py-0.5 text-xs font-medium';

/** Whether the order page shows it: hidden, disabled, and the "most selected" mark. */
export function ProductState({ product }: { product: AdminProduct }) {
  const { t } = useTranslation();
  return (
    <span className="flex flex-wrap gap-1">
      {product.visible ? (
        <span className={`${BADGE} bg-emerald-50 text-emerald-800`}>
          {t('staff_catalog.state.visible')}
        </span>
      ) : (
        <span className={`${BADGE} bg-slate-100 text-slate-700`}>
          {t('staff_catalog.state.hidden')}
        </span>
      )}
      {product.disabled && (
        <span className={`${BADGE} bg-amber-50 text-amber-800`}>
          {t('staff_catalog.state.disabled')}
        </span>
      )}
      {product.as_most_selected && (
        <span className={`${BADGE} bg-brand-50 text-brand-700`}>
          {t('staff_catalog.fields.as_most_selected')}
        </span>
      )}
      {product.includable ? (
        <span className={`${BADGE} bg-sky-50 text-sky-800`}>
          {t('staff_catalog.kinds.includable')}
        </span>
      ) : (
        product.additional && (
          <span className={`${BADGE} bg-sky-50 text-sky-800`}>
            {t('staff_catalog.kinds.addons')}
          </span>
        )
      )}
    </span>
  );
}
