import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../ui/button.tsx';
import { FormField } from '../../../ui/form-field.tsx';

export interface CouponFieldProps {
  /** What is typed. */
  value: string;
  onChange: (value: string) => void;
  /** The code the order carries now, once the server accepted it. */
  applied: string | undefined;
  /** An i18n key: the server's refusal, shown under the field. */
  error: string | undefined;
  onApply: () => void;
  onRemove: () => void;
  busy: boolean;
  disabled?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}

/** A coupon code, checked by the quote endpoint; a refusal stays under the field. */
export function CouponField({
  value,
  onChange,
  applied,
  error,
  onApply,
  onRemove,
  busy,
  disabled,
  inputRef,
}: CouponFieldProps) {
  const { t } = useTranslation();
  if (applied) {
    return (
      <div
        className="flex items-center justify-between gap-3 rounded-lg border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800"
        data-testid="coupon-applied"
      >
        <span className="min-w-0 break-words">{t('order.coupon.applied', { code: applied })}</span>
        <Button variant="ghost" className="shrink-0" onClick={onRemove} disabled={disabled}>
          {t('order.coupon.remove')}
        </Button>
      </div>
    );
  }
  return (
    <FormField id="coupon" label={t('order.coupon.label')} error={error}>
      {(control) => (
        <div className="flex gap-2">
          <input
            {...control}
            ref={inputRef}
            type="text"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={64}
            value={value}
            disabled={disabled}
            onChange={(event) => onChange(event.target.value)}
            onKeyDown={(event) => {
              // Enter applies the coupon rather than paying.
              if (event.key === 'Enter') {
                event.preventDefault();
                if (value.trim() !== '') onApply();
              }
            }}
            className={`h-10 min-w-0 flex-1 rounded-lg border bg-white px-3 text-sm text-slate-900 uppercase placeholder:normal-case placeholder:text-slate-400 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30 ${error ? 'border-red-500' : 'border-[#dfe1e6]'}`}
          />
          <Button
            variant="secondary"
            loading={busy}
            disabled={disabled || value.trim() === ''}
            onClick={onApply}
          >
            {t('order.coupon.apply')}
          </Button>
        </div>
      )}
    </FormField>
  );
}
