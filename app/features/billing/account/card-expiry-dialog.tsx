import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BILLING_MESSAGES, billingEndpoints, type CardView } from '#shared/contracts/billing.ts';
import { isCardExpired } from '#shared/validation/card-expiry.ts';
import { isApiError, isCancelled } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { FormError } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { Select, type SelectOption } from '../../../ui/select.tsx';
import { notify, notifyRequestError } from '../../../ui/toast.tsx';
import { cardBrandName } from './billing-format.ts';

/** How many years ahead the year select reaches. */
const YEARS_AHEAD = 20;

function monthOptions(lang: string): SelectOption<number>[] {
  const name = new Intl.DateTimeFormat(lang, { month: 'long', timeZone: 'UTC' });
  return Array.from({ length: 12 }, (_, index) => ({
    value: index + 1,
    name: String(index + 1).padStart(2, '0'),
    label: name.format(Date.UTC(2000, index, 1)),
  }));
}

function yearOptions(current: number): SelectOption<number>[] {
  const first = new Date().getUTCFullYear();
  const years = Array.from({ length: YEARS_AHEAD + 1 }, (_, index) => first + index);
  // A card already past: its own year stays choosable, so the dialog opens on it.
  if (current < first) years.unshift(current);
  return years.map((year) => ({ value: year, name: String(year) }));
}

interface Props {
  /** The card whose expiry is changed; none: closed. */
  card: CardView | undefined;
  onClose: () => void;
  onSaved: (items: CardView[]) => Promise<void>;
}

/** §4 card edit: a new expiry (month and year) for a saved card. */
export function CardExpiryDialog({ card, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  return (
    <Modal
      open={card !== undefined}
      onOpenChange={(open) => !open && onClose()}
      title={t('payment_methods.expiry.title')}
      description={
        card &&
        t('payment_methods.expiry.text', {
          card: t('billing_account.card_number', {
            brand: cardBrandName(card.brand),
            last4: card.last4,
          }),
        })
      }
      size="sm"
    >
      {card && <ExpiryForm key={card.card_id} card={card} onClose={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function ExpiryForm({ card, onClose, onSaved }: Required<Props> & { card: CardView }) {
  const { t, i18n } = useTranslation();
  const [month, setMonth] = useState(card.exp_month);
  const [year, setYear] = useState(card.exp_year);
  const [errors, setErrors] = useState<{ month?: string; year?: string; form?: string }>({});
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    // §5: the first day of the expiry month must not have passed.
    if (isCardExpired(month, year)) {
      setErrors({ year: BILLING_MESSAGES.cardExpired });
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const answer = await call(billingEndpoints.cardUpdate, {
        body: { card_id: card.card_id, exp_month: month, exp_year: year },
      });
      notify.success('payment_methods.done.expiry');
      onClose();
      await onSaved(answer.items);
    } catch (error) {
      setSaving(false);
      if (isCancelled(error)) return;
      if (isApiError(error) && error.status === 422) {
        const { validation } = error;
        const monthError = validation.exp_month?.[0];
        const yearError = validation.exp_year?.[0] ?? validation.card?.[0];
        setErrors({
          month: monthError,
          year: yearError,
          form: monthError || yearError ? undefined : error.messageKey,
        });
        return;
      }
      if (isApiError(error)) setErrors({ form: error.messageKey });
      else notifyRequestError(error);
    }
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" data-testid="expiry-form">
      <div className="grid grid-cols-2 gap-4">
        <Select
          label={t('payment_methods.expiry.month')}
          options={monthOptions(i18n.language)}
          value={month}
          onSelect={(value) => setMonth(value)}
          error={errors.month}
        />
        <Select
          label={t('payment_methods.expiry.year')}
          options={yearOptions(card.exp_year)}
          value={year}
          onSelect={(value) => setYear(value)}
          error={errors.year}
        />
      </div>
      <FormError message={errors.form} />
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" disabled={saving} onClick={onClose}>
          {t('payment_methods.cancel')}
        </Button>
        <Button type="submit" loading={saving}>
          {t('payment_methods.expiry.save')}
        </Button>
      </div>
    </form>
  );
}
