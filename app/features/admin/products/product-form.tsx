import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { BILLING_INTERVALS, type BillingInterval } from '#shared/billing/billing-values.ts';
import {
  type AdminProduct,
  type ProductCreateRequest,
  productEndpoints,
  productFields,
} from '#shared/contracts/admin/products.ts';
import { LOCALES } from '#shared/locales.ts';
import { SERVICE_ID_LIST, type ServiceId } from '#shared/subscription/actions.ts';
import { DEFAULT_DEVICE_LIMIT } from '#shared/vpn/fleet-rules.ts';
import { call } from '../../../api/client.ts';
import { applyApiErrors, applySchemaIssues } from '../../../ui/api-form-errors.ts';
import { Button } from '../../../ui/button.tsx';
import { FieldSlot, FormError, FormField } from '../../../ui/form-field.tsx';
import { TextInput } from '../../../ui/text-input.tsx';
import { majorText, minorUnits } from './product-money.ts';
import { SERVICE_LABELS } from './product-screens.ts';

/** The form's values as the inputs hold them: text for numbers, prices in major units. */
interface ProductFormValues {
  service_id: string;
  plan: string;
  name: string;
  description: string;
  amount: string;
  amount_old: string;
  currency: string;
  interval: BillingInterval | '';
  interval_count: string;
  onetime: boolean;
  visible: boolean;
  disabled: boolean;
  sort: string;
  as_monthly_rate: boolean;
  discounted_badge: boolean;
  as_most_selected: boolean;
  additional: boolean;
  includable: boolean;
  additional_product: string;
  family_seats: string;
  device_limit: string;
}
type FieldName = keyof ProductFormValues;

const FIELDS: readonly FieldName[] = [
  'service_id',
  'plan',
  'name',
  'description',
  'amount',
  'amount_old',
  'currency',
  'interval',
  'interval_count',
  'onetime',
  'visible',
  'disabled',
  'sort',
  'as_monthly_rate',
  'discounted_badge',
  'as_most_selected',
  'additional',
  'includable',
  'additional_product',
  'family_seats',
  'device_limit',
];

const FLAGS = [
  'visible',
  'disabled',
  'onetime',
  'as_monthly_rate',
  'discounted_badge',
  'as_most_selected',
  'additional',
  'includable',
] as const satisfies readonly FieldName[];

/** The currencies of the §3 locales first; staff may type another ISO code. */
export const CURRENCIES = [...new Set(LOCALES.map((locale) => locale.currency))];

function valuesOf(product: AdminProduct | undefined, serviceId: ServiceId): ProductFormValues {
  const currency = product?.currency ?? 'USD';
  return {
    service_id: String(product?.service_id ?? serviceId),
    plan: product?.plan ?? '',
    name: product?.name ?? '',
    description: product?.description ?? '',
    amount: majorText(product?.amount, currency),
    amount_old: majorText(product?.amount_old, currency),
    currency,
    interval: product?.interval ?? 'month',
    interval_count: String(product?.interval_count ?? 1),
    // Cryptomus sells one period at a time.
    onetime: product?.onetime ?? serviceId === 6,
    visible: product?.visible ?? true,
    disabled: product?.disabled ?? false,
    sort: String(product?.sort ?? 0),
    as_monthly_rate: product?.as_monthly_rate ?? false,
    discounted_badge: product?.discounted_badge ?? false,
    as_most_selected: product?.as_most_selected ?? false,
    additional: product?.additional ?? false,
    includable: product?.includable ?? false,
    additional_product: product?.additional_product?.toString() ?? '',
    family_seats: String(product?.family_seats ?? 0),
    device_limit: String(product?.device_limit ?? DEFAULT_DEVICE_LIMIT),
  };
}

/** A typed whole number; NaN for anything else, which the schema refuses as invalid. */
const whole = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim()));

function requestOf(values: ProductFormValues) {
  const currency = values.currency.trim().toUpperCase();
  return {
    plan: values.plan,
    name: values.name,
    description: values.description,
    amount: minorUnits(values.amount, currency) ?? Number.NaN,
    amount_old: minorUnits(values.amount_old, currency),
    currency,
    interval: values.interval === '' ? null : values.interval,
    interval_count: whole(values.interval_count),
    onetime: values.onetime,
    visible: values.visible,
    disabled: values.disabled,
    sort: whole(values.sort),
    as_monthly_rate: values.as_monthly_rate,
    discounted_badge: values.discounted_badge,
    as_most_selected: values.as_most_selected,
    additional: values.additional,
    includable: values.includable,
    additional_product: values.additional_product === '' ? null : Number(values.additional_product),
    family_seats: whole(values.family_seats),
    device_limit: whole(values.device_limit),
  };
}

const CONTROL =
  'h-10 w-full min-w-0 rounded-lg border border-[#dfe1e6] bg-white px-3 text-sm text-slate-900 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30 disabled:bg-slate-50 disabled:text-slate-500 aria-[invalid=true]:border-red-500';

/** The addons a plan may offer beside it: those of its service and currency. */
function useAddonChoices(serviceId: number, currency: string, selfId: number | undefined) {
  const valid = /^[A-Z]{3}$/.test(currency);
  const query = useQuery({
    queryKey: ['admin', productEndpoints.list.url, 'addon-choices', serviceId, currency],
    queryFn: ({ signal }) =>
      call(
        productEndpoints.list,
        {
          query: {
            service_id: serviceId as ServiceId,
            currency,
            kind: 'addons',
            per_page: 100,
          } as never,
        },
        { signal },
      ),
    enabled: valid,
  });
  return (query.data?.items ?? []).filter((addon) => addon.product_id !== selfId);
}

/**
 * Every §3 field of a product, for creating one and for changing it. Checked in the browser
 * by the endpoint's own schema; the server's messages go under their fields (§5). The
 * service is chosen once, at creation, and only where the screen spans services (addons).
 */
export function ProductForm(props: {
  product?: AdminProduct;
  /** The service of a new product; with `chooseService` only the first choice. */
  serviceId: ServiceId;
  chooseService?: boolean;
  /** New addons start as addons (the addons screens). */
  defaults?: Partial<Pick<ProductFormValues, 'additional' | 'includable'>>;
  submitLabel: string;
  onSubmit: (fields: ProductCreateRequest) => Promise<unknown>;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const [formError, setFormError] = useState<string>();
  const form = useForm<ProductFormValues>({
    defaultValues: { ...valuesOf(props.product, props.serviceId), ...props.defaults },
  });
  const { register, handleSubmit, setError, formState, watch } = form;
  const error = (name: FieldName) => formState.errors[name]?.message as string | undefined;
  const serviceId = Number(watch('service_id')) as ServiceId;
  const currency = watch('currency').trim().toUpperCase();
  const additional = watch('additional');
  const addons = useAddonChoices(serviceId, currency, props.product?.product_id);

  const submit = handleSubmit(async (values) => {
    setFormError(undefined);
    const parsed = productFields.safeParse(requestOf(values));
    if (!parsed.success) {
      applySchemaIssues(parsed.error.issues, setError, FIELDS);
      return;
    }
    try {
      await props.onSubmit({ ...parsed.data, service_id: Number(values.service_id) as ServiceId });
    } catch (failure) {
      setFormError(applyApiErrors(failure, setError, FIELDS));
    }
  });

  const text = (
    name: FieldName,
    options: { hint?: string; required?: boolean; inputMode?: 'decimal' | 'numeric' } = {},
  ) => (
    <FieldSlot>
      <TextInput
        label={t(`staff_catalog.fields.${name}`)}
        hint={options.hint}
        required={options.required}
        inputMode={options.inputMode}
        error={error(name)}
        {...register(name)}
      />
    </FieldSlot>
  );

  return (
    <form noValidate onSubmit={submit} className="flex flex-col" aria-label={props.submitLabel}>
      <div className="grid gap-x-4 sm:grid-cols-2">
        {props.chooseService && !props.product ? (
          <FieldSlot>
            <FormField
              label={t('staff_catalog.fields.service_id')}
              error={error('service_id')}
              required
            >
              {(field) => (
                <select {...register('service_id')} {...field} className={CONTROL}>
                  {SERVICE_ID_LIST.map((id) => (
                    <option key={id} value={id}>
                      {t(SERVICE_LABELS[id])}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
          </FieldSlot>
        ) : null}
        {text('name', { required: true })}
        {text('plan', { required: true, hint: t('staff_catalog.form.plan_hint') })}
        {text('amount', {
          required: true,
          inputMode: 'decimal',
          hint: t('staff_catalog.form.amount_hint'),
        })}
        {text('amount_old', {
          inputMode: 'decimal',
          hint: t('staff_catalog.form.amount_old_hint'),
        })}
        <FieldSlot>
          <FormField
            label={t('staff_catalog.fields.currency')}
            error={error('currency')}
            required
            hint={t('staff_catalog.form.currency_hint')}
          >
            {(field) => (
              <>
                <input
                  {...register('currency')}
                  {...field}
                  list="product-currencies"
                  autoComplete="off"
                  maxLength={3}
                  className={`${CONTROL} uppercase`}
                />
                <datalist id="product-currencies">
                  {CURRENCIES.map((code) => (
                    <option key={code} value={code} />
                  ))}
                </datalist>
              </>
            )}
          </FormField>
        </FieldSlot>
        <FieldSlot>
          <FormField label={t('staff_catalog.fields.interval')} error={error('interval')} required>
            {(field) => (
              <select {...register('interval')} {...field} className={CONTROL}>
                {BILLING_INTERVALS.map((interval) => (
                  <option key={interval} value={interval}>
                    {t(`staff_catalog.intervals.${interval}`)}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        </FieldSlot>
        {text('interval_count', { required: true, inputMode: 'numeric' })}
        {text('sort', { inputMode: 'numeric', hint: t('staff_catalog.form.sort_hint') })}
        {text('family_seats', { inputMode: 'numeric' })}
        {text('device_limit', {
          required: true,
          inputMode: 'numeric',
          hint: t('staff_catalog.form.device_limit_hint'),
        })}
        {!additional && (
          <FieldSlot>
            <FormField
              label={t('staff_catalog.fields.additional_product')}
              error={error('additional_product')}
              hint={t('staff_catalog.form.additional_product_hint')}
            >
              {(field) => (
                <select {...register('additional_product')} {...field} className={CONTROL}>
                  <option value="">{t('staff.kit.none')}</option>
                  {props.product?.additional_product != null &&
                    !addons.some(
                      (addon) => addon.product_id === props.product?.additional_product,
                    ) && (
                      <option value={props.product.additional_product}>
                        #{props.product.additional_product}
                      </option>
                    )}
                  {addons.map((addon) => (
                    <option key={addon.product_id} value={addon.product_id}>
                      {addon.name} (#{addon.product_id})
                    </option>
                  ))}
                </select>
              )}
            </FormField>
          </FieldSlot>
        )}
      </div>
      <FieldSlot>
        <FormField label={t('staff_catalog.fields.description')} error={error('description')}>
          {(field) => (
            <textarea
              {...register('description')}
              {...field}
              rows={3}
              className={`${CONTROL} h-auto py-2`}
            />
          )}
        </FormField>
      </FieldSlot>
      <fieldset className="mb-4 grid gap-2 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-medium text-slate-800">
          {t('staff_catalog.form.flags')}
        </legend>
        {FLAGS.map((name) => (
          <div key={name} className="flex flex-col">
            <label className="inline-flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                className="size-4 rounded border-[#dfe1e6] accent-brand-500"
                aria-invalid={error(name) ? true : undefined}
                {...register(name)}
              />
              {t(`staff_catalog.fields.${name}`)}
            </label>
            {error(name) && <p className="text-xs text-red-600">{t(error(name) ?? '')}</p>}
          </div>
        ))}
      </fieldset>
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
