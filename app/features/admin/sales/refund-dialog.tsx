import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AdminInvoice, invoiceEndpoints } from '#shared/contracts/admin/invoices.ts';
import { formatMoney } from '#shared/money.ts';
import { isApiError, isCancelled, messageKeyOf } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { FormError, FormField } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { TextInput } from '../../../ui/text-input.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { parseMinor } from './money-input.ts';

type Errors = Partial<Record<'amount' | 'reason' | 'address' | 'end_subscription', string>>;
const FIELDS = ['amount', 'reason', 'address', 'end_subscription'] as const;

/**
 * Refund of one invoice: all that is left or a part, a reason, optionally ending its
 * subscription now (the customer's plan then shows §4 refunded), and for crypto the
 * customer's wallet. Confirmed once more before any money moves.
 */
export function RefundDialog(props: {
  invoice: AdminInvoice;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { invoice } = props;
  const { t } = useTranslation();
  const lang = useLang();
  const queryClient = useQueryClient();
  const id = useId();
  const left = invoice.amount_paid - invoice.amount_refunded;
  const crypto = invoice.gateway === 'cryptomus';
  const [mode, setMode] = useState<'full' | 'part'>('full');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [endSubscription, setEndSubscription] = useState(false);
  const [address, setAddress] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const money = (minor: number) => formatMoney({ amount: minor, currency: invoice.currency }, lang);

  const close = (open: boolean) => {
    if (busy) return;
    if (!open) {
      setMode('full');
      setAmount('');
      setReason('');
      setEndSubscription(false);
      setAddress('');
      setErrors({});
      setFormError(undefined);
    }
    props.onOpenChange(open);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setFormError(undefined);
    const minor = mode === 'full' ? left : parseMinor(amount, invoice.currency);
    const found: Errors = {};
    if (minor === null) found.amount = 'input_errors.field_is_invalid';
    else if (minor > left) found.amount = 'staff_sales.errors.refund_too_large';
    if (crypto && address.trim() === '') found.address = 'staff_sales.errors.address_required';
    setErrors(found);
    if (Object.keys(found).length > 0 || minor === null) return;
    const confirmed = await confirm({
      title: t('staff_sales.refund.confirm_title'),
      text: t(
        endSubscription ? 'staff_sales.refund.confirm_text_end' : 'staff_sales.refund.confirm_text',
        { amount: money(minor), number: invoice.number ?? `#${invoice.invoice_id}` },
      ),
      icon: 'danger',
      actionName: 'invoice-refund',
      yes: { label: t('staff_sales.refund.submit'), variant: 'danger' },
    });
    if (!confirmed) return;
    setBusy(true);
    try {
      await call(invoiceEndpoints.refund, {
        body: {
          invoice_id: invoice.invoice_id,
          ...(mode === 'part' ? { amount: minor } : {}),
          ...(reason.trim() ? { reason: reason.trim() } : {}),
          end_subscription: endSubscription,
          ...(crypto ? { address: address.trim() } : {}),
        },
      });
      notify.success('staff_sales.done.refunded', { values: { amount: money(minor) } });
      await queryClient.invalidateQueries({ queryKey: ['admin'] });
      setBusy(false);
      close(false);
    } catch (error) {
      setBusy(false);
      if (isCancelled(error)) return;
      if (!isApiError(error)) {
        console.error(error);
        setFormError(messageKeyOf('internal'));
        return;
      }
      const next: Errors = {};
      for (const field of FIELDS) {
        const first = error.validation[field]?.[0];
        if (first) next[field] = first;
      }
      setErrors(next);
      if (Object.keys(next).length === 0 || error.info.length > 0) setFormError(error.messageKey);
    }
  };

  return (
    <Modal
      open={props.open}
      onOpenChange={close}
      dismissible={!busy}
      title={t('staff_sales.refund.title', { number: invoice.number ?? `#${invoice.invoice_id}` })}
      description={t('staff_sales.refund.left', { amount: money(left) })}
    >
      <form className="mt-4 flex flex-col gap-4" onSubmit={submit} noValidate>
        <FormError message={formError} />
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-800">
            {t('staff_sales.refund.how_much')}
          </legend>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={`${id}-mode`}
              checked={mode === 'full'}
              onChange={() => setMode('full')}
            />
            {t('staff_sales.refund.full', { amount: money(left) })}
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={`${id}-mode`}
              checked={mode === 'part'}
              disabled={crypto}
              onChange={() => setMode('part')}
            />
            {t('staff_sales.refund.part')}
          </label>
          {crypto && <p className="text-xs text-slate-600">{t('staff_sales.errors.whole_only')}</p>}
        </fieldset>
        {mode === 'part' && (
          <TextInput
            label={t('staff_sales.refund.amount', { currency: invoice.currency })}
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            error={errors.amount}
            required
          />
        )}
        {mode === 'full' && errors.amount && <FormError message={errors.amount} />}
        <FormField label={t('staff_sales.refund.reason')} error={errors.reason}>
          {(control) => (
            <textarea
              {...control}
              rows={2}
              maxLength={500}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              className="rounded-lg border border-[#dfe1e6] bg-white px-3 py-2 text-sm focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30"
            />
          )}
        </FormField>
        {crypto && (
          <TextInput
            label={t('staff_sales.refund.address')}
            hint={t('staff_sales.refund.address_hint')}
            autoComplete="off"
            spellCheck={false}
            value={address}
            onChange={(event) => setAddress(event.target.value)}
            error={errors.address}
            required
          />
        )}
        {invoice.subscription_id !== null && (
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-0.5"
              checked={endSubscription}
              onChange={(event) => setEndSubscription(event.target.checked)}
            />
            <span>
              {t('staff_sales.refund.end_subscription')}
              <span className="block text-xs text-slate-600">
                {t('staff_sales.refund.end_subscription_hint')}
              </span>
            </span>
          </label>
        )}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={() => close(false)} disabled={busy}>
            {t('staff_sales.actions.close')}
          </Button>
          <Button type="submit" variant="danger" loading={busy}>
            {t('staff_sales.refund.submit')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
