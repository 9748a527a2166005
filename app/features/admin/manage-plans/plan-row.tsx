import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminProduct } from '#shared/contracts/admin/products.ts';
import type { Lang } from '#shared/locales.ts';
import { TextInput } from '../../../ui/text-input.tsx';
import { parseMajor, type RowDraft } from './plan-draft.ts';
import { PlanPreview } from './plan-preview.tsx';

export interface PlanRowProps {
  product: AdminProduct;
  row: RowDraft;
  onChange: (patch: Partial<RowDraft>) => void;
  /** The radio group's name, when this list offers "most selected". */
  mostSelectedGroup?: string | undefined;
  included: readonly string[];
  /** An i18n key: what stops the row being saved, or the server's word on it. */
  error?: string | undefined;
  lang: Lang;
  disabled: boolean;
}

/** One plan of the list: how the order page will show it, and the flags that change that. */
export function PlanRow({
  product,
  row,
  onChange,
  mostSelectedGroup,
  included,
  error,
  lang,
  disabled,
}: PlanRowProps) {
  const { t } = useTranslation();
  const legendId = useId();
  const old = parseMajor(row.amount_old, product.currency);
  return (
    <div className="grid gap-4 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <PlanPreview
        product={product}
        flags={{ ...row, amount_old: old ?? null }}
        included={included}
        lang={lang}
      />
      <fieldset aria-labelledby={legendId} disabled={disabled} className="flex flex-col gap-2">
        <legend id={legendId} className="sr-only">
          {t('staff_plans.controls_of', { name: product.name })}
        </legend>
        <div className="flex flex-wrap gap-x-5 gap-y-2 text-sm text-slate-800">
          {mostSelectedGroup !== undefined && (
            <label className="inline-flex items-center gap-2">
              <input
                type="radio"
                name={mostSelectedGroup}
                checked={row.as_most_selected}
                onChange={() => onChange({ as_most_selected: true })}
                className="size-4 accent-brand-500"
              />
              {t('staff_plans.most_selected')}
            </label>
          )}
          <label className="inline-flex items-center gap-2">
            <input
              type="checkbox"
              checked={row.as_monthly_rate}
              onChange={(event) => onChange({ as_monthly_rate: event.target.checked })}
              className="size-4 accent-brand-500"
            />
            {t('staff_plans.monthly_rate')}
          </label>
          <label className="inline-flex items-center gap-2">
            <input
              type="checkbox"
              checked={row.discounted_badge}
              onChange={(event) => onChange({ discounted_badge: event.target.checked })}
              className="size-4 accent-brand-500"
            />
            {t('staff_plans.discounted_badge')}
          </label>
        </div>
        <TextInput
          label={t('staff_plans.amount_old', { currency: product.currency })}
          inputMode="decimal"
          autoComplete="off"
          value={row.amount_old}
          onChange={(event) => onChange({ amount_old: event.target.value })}
          error={error}
          hint={t('staff_plans.amount_old_hint')}
          data-testid={`amount-old-${product.product_id}`}
          className="max-w-40"
        />
      </fieldset>
    </div>
  );
}
