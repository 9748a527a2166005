import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type BillingAddress, billingEndpoints } from '#shared/contracts/billing.ts';
import { isApiError, isCancelled, messageKeyOf } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { FormError } from '../../../ui/form-field.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { notify } from '../../../ui/toast.tsx';
import {
  ADDRESS_FIELDS,
  BillingAddressFields,
  useBillingAddressForm,
} from '../billing-address-fields.tsx';
import { billingKeys } from './billing-api.ts';
import { LoadError, Skeleton } from './load-states.tsx';

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

/** The order screens' address fields (billing-address-fields.tsx), open, with a Save of their own. */
function AddressForm({ saved }: { saved: BillingAddress }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const address = useBillingAddressForm({ initialOpen: true });
  const [formError, setFormError] = useState<string>();
  const { form } = address;
  const { isSubmitting, isDirty } = form.formState;

  // Fills the fields with what is saved, unless the person has started typing.
  useEffect(() => address.prefill(saved), [address.prefill, saved]);

  const submit = form.handleSubmit(async () => {
    setFormError(undefined);
    try {
      // Every field emptied clears the address.
      const body = address.value() ?? EMPTY;
      const answer = await call(billingEndpoints.billingAddressUpdate, { body });
      queryClient.setQueryData(billingKeys.address, answer);
      form.reset({ ...EMPTY, ...answer.billing_address });
      notify.success('payment_methods.done.address');
    } catch (error) {
      if (isCancelled(error)) return;
      if (!isApiError(error)) {
        console.error(error);
        setFormError(messageKeyOf('internal'));
        return;
      }
      // §5 each field's first message under it, the first one focused.
      if (address.applyErrors(error.validation)) {
        const first = ADDRESS_FIELDS.find((field) => form.getFieldState(field).error);
        if (first && first !== 'country') form.setFocus(first);
        if (error.info[0]) setFormError(error.info[0]);
        return;
      }
      setFormError(error.messageKey);
    }
  });

  return (
    <form noValidate onSubmit={submit} className="flex flex-col" data-testid="billing-address-form">
      <BillingAddressFields address={address} alwaysOpen readOnly={isSubmitting} />
      <FormError message={formError} className="mb-4" />
      <div className="flex justify-end">
        <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
          {t('payment_methods.address.save')}
        </Button>
      </div>
    </form>
  );
}
