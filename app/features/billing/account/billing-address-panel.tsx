import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { type BillingAddress, billingEndpoints } from '#shared/contracts/billing.ts';
import { call } from '../../../api/client.ts';
import { applyApiErrors } from '../../../ui/api-form-errors.ts';
import { Button } from '../../../ui/button.tsx';
import { FieldSlot, FormError } from '../../../ui/form-field.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { TextInput } from '../../../ui/text-input.tsx';
import { notify } from '../../../ui/toast.tsx';
import { billingKeys } from './billing-api.ts';
import { LoadError, Skeleton } from './load-states.tsx';

type Field = keyof BillingAddress;

const FIELDS = [
  'name',
  'company',
  'line1',
  'line2',
  'city',
  'postal_code',
  'region',
  'country',
  'vat_id',
] as const satisfies readonly Field[];

const EMPTY: BillingAddress = {
  name: '',
  company: '',
  line1: '',
  line2: '',
  city: '',
  postal_code: '',
  region: '',
  country: '',
  vat_id: '',
};

// The contract's limits (shared/contracts/billing.ts billingAddress), checked here too so a
// mistake shows before the round trip; the server checks them again.
const MAX: Record<Field, number> = {
  name: 200,
  company: 200,
  line1: 200,
  line2: 200,
  city: 100,
  postal_code: 20,
  region: 100,
  country: 2,
  vat_id: 32,
};

const LABELS: Record<Field, string> = {
  name: 'payment_methods.address.name',
  company: 'payment_methods.address.company',
  line1: 'payment_methods.address.line1',
  line2: 'payment_methods.address.line2',
  city: 'payment_methods.address.city',
  postal_code: 'payment_methods.address.postal_code',
  region: 'payment_methods.address.region',
  country: 'payment_methods.address.country',
  vat_id: 'payment_methods.address.vat_id',
};

const AUTOCOMPLETE: Partial<Record<Field, string>> = {
  name: 'billing name',
  company: 'billing organization',
  line1: 'billing address-line1',
  line2: 'billing address-line2',
  city: 'billing address-level2',
  postal_code: 'billing postal-code',
  region: 'billing address-level1',
  country: 'billing country',
};

/** §7 users/billing-address: the buyer printed on invoices; every field is optional. */
export function BillingAddressPanel() {
  const { t } = useTranslation();
  const address = useQuery({
    queryKey: billingKeys.address,
    queryFn: ({ signal }) => call(billingEndpoints.billingAddress, {}, { signal }),
    select: (answer) => answer.billing_address,
  });
  return (
    <Panel
      id="billing-address"
      title={t('payment_methods.address.title')}
      description={t('payment_methods.address.text')}
    >
      {address.isPending ? (
        <Skeleton lines={6} />
      ) : address.isError ? (
        <LoadError error={address.error} onRetry={() => address.refetch()} />
      ) : (
        <AddressForm saved={address.data} />
      )}
    </Panel>
  );
}

function AddressForm({ saved }: { saved: BillingAddress }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string>();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<BillingAddress>({ values: { ...EMPTY, ...saved } });

  const submit = handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      const body = { ...values, country: values.country.trim().toUpperCase() };
      const answer = await call(billingEndpoints.billingAddressUpdate, { body });
      queryClient.setQueryData(billingKeys.address, answer);
      reset(answer.billing_address);
      notify.success('payment_methods.done.address');
    } catch (error) {
      setFormError(applyApiErrors(error, setError, FIELDS));
    }
  });

  const field = (name: Field, extra: { className?: string; hint?: string } = {}) => (
    <FieldSlot>
      <TextInput
        label={t(LABELS[name])}
        autoComplete={AUTOCOMPLETE[name] ?? 'off'}
        hint={extra.hint}
        className={extra.className}
        {...register(name, {
          maxLength: { value: MAX[name], message: 'input_errors.field_is_too_long' },
          ...(name === 'country' && {
            pattern: { value: /^\s*([A-Za-z]{2})?\s*$/, message: 'input_errors.field_is_invalid' },
          }),
        })}
        error={errors[name]?.message}
      />
    </FieldSlot>
  );

  return (
    <form noValidate onSubmit={submit} className="flex flex-col" data-testid="billing-address-form">
      <div className="grid gap-x-4 sm:grid-cols-2">
        {field('name')}
        {field('company')}
      </div>
      {field('line1')}
      {field('line2')}
      <div className="grid gap-x-4 sm:grid-cols-2">
        {field('city')}
        {field('postal_code')}
        {field('region')}
        {field('country', {
          className: 'uppercase',
          hint: t('payment_methods.address.country_hint'),
        })}
      </div>
      <div className="sm:w-1/2 sm:pr-2">{field('vat_id')}</div>
      <FormError message={formError} className="mb-4" />
      <div className="flex justify-end">
        <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
          {t('payment_methods.address.save')}
        </Button>
      </div>
    </form>
  );
}
