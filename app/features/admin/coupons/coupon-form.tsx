import { type ReactNode, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { COUPON_DURATIONS } from '#shared/billing/billing-values.ts';
import {
  type AdminCouponDetail,
  type CouponFields,
  couponFields,
  DISCOUNT_TYPES,
} from '#shared/contracts/admin/coupons.ts';
import { LOCALES } from '#shared/locales.ts';
import { minorDigits } from '#shared/money.ts';
import { applyApiErrors, applySchemaIssues } from '../../../ui/api-form-errors.ts';
import { Button } from '../../../ui/button.tsx';
import { FieldSlot, FormError, FormField } from '../../../ui/form-field.tsx';
import { TextInput } from '../../../ui/text-input.tsx';
import { ProductPicker } from './product-picker.tsx';

/** The form's values as the inputs hold them: text for numbers, a day for the expiry. */
interface CouponFormValues {
  code: string;
  name: string;
  discount_type: CouponFields['discount_type'];
  percent_off: string;
  /** In the currency's major unit ("5.99"), as staff think of money. */
  amount_off: string;
  currency: string;
  duration: CouponFields['duration'];
  duration_in_months: string;
  /** `YYYY-MM-DD`: the coupon works until that day ends, in staff's time zone. */
  expires_at: string;
  max_redemptions: string;
  preapplied: boolean;
  product_ids: number[];
}
type FieldName = keyof CouponFormValues;

const FIELDS: readonly FieldName[] = [
  'code',
  'name',
  'discount_type',
  'percent_off',
  'amount_off',
  'currency',
  'duration',
  'duration_in_months',
  'expires_at',
  'max_redemptions',
  'preapplied',
  'product_ids',
];
/** What a redeemed coupon keeps (the server refuses changing them too). */
const LOCKED = new Set<FieldName>([
  'code',
  'discount_type',
  'percent_off',
  'amount_off',
  'currency',
  'duration',
  'duration_in_months',
]);
const CURRENCIES = [...new Set(LOCALES.map((locale) => locale.currency))];

const pad = (n: number) => String(n).padStart(2, '0');
function localDay(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
/** A typed whole number; NaN for anything else, which the schema refuses as invalid. */
function wholeOrNull(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : Number(trimmed);
}

function valuesOf(coupon: AdminCouponDetail | undefined): CouponFormValues {
  const currency = coupon?.currency ?? 'USD';
  return {
    code: coupon?.code ?? '',
    name: coupon?.name ?? '',
    discount_type: coupon?.discount_type ?? 'percent',
    percent_off: coupon?.percent_off?.toString() ?? '',
    amount_off:
      coupon?.amount_off != null
        ? (coupon.amount_off / 10 ** minorDigits(currency)).toFixed(minorDigits(currency))
        : '',
    currency,
    duration: coupon?.duration ?? 'once',
    duration_in_months: coupon?.duration_in_months?.toString() ?? '',
    expires_at: localDay(coupon?.expires_at ?? null),
    max_redemptions: coupon?.max_redemptions?.toString() ?? '',
    preapplied: coupon?.preapplied ?? false,
    product_ids: coupon?.product_ids ?? [],
  };
}

/** The request the values stand for, in minor units and ISO moments. */
function requestOf(values: CouponFormValues): CouponFields {
  const amount = values.amount_off.trim().replace(',', '.');
  const digits = minorDigits(values.currency || 'USD');
  return {
    code: values.code,
    name: values.name,
    discount_type: values.discount_type,
    percent_off: values.discount_type === 'percent' ? wholeOrNull(values.percent_off) : null,
    amount_off:
      values.discount_type === 'amount' && amount !== ''
        ? Math.round(Number(amount) * 10 ** digits)
        : null,
    currency: values.discount_type === 'amount' ? values.currency || null : null,
    duration: values.duration,
    duration_in_months:
      values.duration === 'repeating' ? wholeOrNull(values.duration_in_months) : null,
    expires_at: values.expires_at
      ? new Date(`${values.expires_at}T23:59:59.999`).toISOString()
      : null,
    max_redemptions: wholeOrNull(values.max_redemptions),
    preapplied: values.preapplied,
    product_ids: values.product_ids,
  };
}

const CONTROL =
  'h-10 w-full min-w-0 rounded-lg border border-[#dfe1e6] bg-white px-3 text-sm text-slate-900 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30 disabled:bg-slate-50 disabled:text-slate-500 aria-[invalid=true]:border-red-500';

/**
 * Every field of a coupon, for creating one and for changing it. Checked in the browser by
 * the endpoint's own schema; the server's messages go under their fields (§5). Once a coupon
 * has been redeemed its code and discount are shown but cannot change.
 */
export function CouponForm(props: {
  coupon?: AdminCouponDetail;
  submitLabel: string;
  onSubmit: (fields: CouponFields) => Promise<unknown>;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const [formError, setFormError] = useState<string>();
  const form = useForm<CouponFormValues>({ defaultValues: valuesOf(props.coupon) });
  const { register, handleSubmit, setError, formState, watch, control } = form;
  const locked = props.coupon?.terms_locked ?? false;
  const lockedField = (name: FieldName) => locked && LOCKED.has(name);
  const error = (name: FieldName) => formState.errors[name]?.message as string | undefined;
  const hint = (name: FieldName, own?: string) =>
    lockedField(name) ? t('staff_coupons.form.locked_hint') : own;
  const type = watch('discount_type');
  const duration = watch('duration');

  const submit = handleSubmit(async (values) => {
    setFormError(undefined);
    // A redeemed coupon's terms are sent as they are, whatever the disabled inputs hold.
    const kept = locked ? valuesOf(props.coupon) : values;
    const sent = { ...values };
    for (const name of LOCKED) Object.assign(sent, { [name]: kept[name] });
    const parsed = couponFields.safeParse(requestOf(sent));
    if (!parsed.success) {
      applySchemaIssues(parsed.error.issues, setError, FIELDS);
      return;
    }
    try {
      await props.onSubmit(parsed.data);
    } catch (failure) {
      setFormError(applyApiErrors(failure, setError, FIELDS));
    }
  });

  const select = (name: FieldName, label: string, options: { value: string; label: string }[]) => (
    <FieldSlot>
      <FormField label={label} error={error(name)} hint={hint(name)} required>
        {(field) => (
          <select {...register(name)} {...field} disabled={lockedField(name)} className={CONTROL}>
            {options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        )}
      </FormField>
    </FieldSlot>
  );

  return (
    <form noValidate onSubmit={submit} className="flex flex-col" aria-label={props.submitLabel}>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <FieldSlot>
          <TextInput
            label={t('staff_coupons.fields.code')}
            hint={hint('code', t('staff_coupons.form.code_hint'))}
            required
            autoComplete="off"
            disabled={lockedField('code')}
            error={error('code')}
            {...register('code')}
          />
        </FieldSlot>
        <FieldSlot>
          <TextInput
            label={t('staff_coupons.fields.name')}
            required
            autoComplete="off"
            error={error('name')}
            {...register('name')}
          />
        </FieldSlot>
        {select(
          'discount_type',
          t('staff_coupons.fields.discount_type'),
          DISCOUNT_TYPES.map((value) => ({
            value,
            label: t(`staff_coupons.discount_types.${value}`),
          })),
        )}
        {type === 'percent' ? (
          <FieldSlot>
            <TextInput
              label={t('staff_coupons.fields.percent_off')}
              inputMode="numeric"
              required
              disabled={lockedField('percent_off')}
              hint={hint('percent_off', t('staff_coupons.form.percent_hint'))}
              error={error('percent_off')}
              {...register('percent_off')}
            />
          </FieldSlot>
        ) : (
          <div className="grid grid-cols-[1fr_7rem] gap-x-3">
            <FieldSlot>
              <TextInput
                label={t('staff_coupons.fields.amount_off')}
                inputMode="decimal"
                required
                disabled={lockedField('amount_off')}
                hint={hint('amount_off')}
                error={error('amount_off')}
                {...register('amount_off')}
              />
            </FieldSlot>
            {select(
              'currency',
              t('staff_coupons.fields.currency'),
              CURRENCIES.map((value) => ({ value, label: value })),
            )}
          </div>
        )}
        {select(
          'duration',
          t('staff_coupons.fields.duration'),
          COUPON_DURATIONS.map((value) => ({
            value,
            label: t(`staff_coupons.durations.${value}`),
          })),
        )}
        {duration === 'repeating' && (
          <FieldSlot>
            <TextInput
              label={t('staff_coupons.fields.duration_in_months')}
              inputMode="numeric"
              required
              disabled={lockedField('duration_in_months')}
              hint={hint('duration_in_months')}
              error={error('duration_in_months')}
              {...register('duration_in_months')}
            />
          </FieldSlot>
        )}
        <FieldSlot>
          <TextInput
            label={t('staff_coupons.fields.expires_at')}
            type="date"
            hint={t('staff_coupons.form.expires_hint')}
            error={error('expires_at')}
            {...register('expires_at')}
          />
        </FieldSlot>
        <FieldSlot>
          <TextInput
            label={t('staff_coupons.fields.max_redemptions')}
            inputMode="numeric"
            hint={t('staff_coupons.form.max_redemptions_hint')}
            error={error('max_redemptions')}
            {...register('max_redemptions')}
          />
        </FieldSlot>
      </div>
      <Controller
        control={control}
        name="product_ids"
        render={({ field }) => (
          <FieldSlot>
            <ProductPicker
              value={field.value}
              onChange={field.onChange}
              known={props.coupon?.products ?? []}
              error={error('product_ids')}
            />
          </FieldSlot>
        )}
      />
      <div className="mb-4 flex flex-col gap-1">
        <label className="inline-flex items-center gap-2 text-sm font-medium text-slate-800">
          <input
            type="checkbox"
            className="size-4 rounded border-[#dfe1e6] accent-brand-500"
            {...register('preapplied')}
          />
          {t('staff_coupons.fields.preapplied')}
        </label>
        <p className="text-xs text-slate-500">{t('staff_coupons.form.preapplied_hint')}</p>
      </div>
      <FormError message={formError} className="mb-4" />
      <div className="flex flex-wrap justify-end gap-2">
        {props.extra}
        <Button type="submit" loading={formState.isSubmitting}>
          {props.submitLabel}
        </Button>
      </div>
    </form>
  );
}
