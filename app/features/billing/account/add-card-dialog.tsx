import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { billingEndpoints, type CardView } from '#shared/contracts/billing.ts';
import { SERVICE_IDS } from '#shared/subscription/actions.ts';
import { isCancelled } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { useSession } from '../../../session/session-store.ts';
import { Button } from '../../../ui/button.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { closeModal, useModal } from '../../../ui/modal-flags.ts';
import { notify, notifyRequestError } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { CardForm, useCardForm } from '../card-form.tsx';
import { PROVIDER_NAMES } from '../order/payment-method-choice.tsx';
import { goToProvider } from '../order/provider-hop.ts';
import { useCardService } from './billing-api.ts';
import { LoadError, Skeleton } from './load-states.tsx';
import { declineMessage } from './use-payment.ts';

/** §4 card create: the card form, its token saved as a card (the number never reaches us). */
export function AddCardDialog({ onSaved }: { onSaved: (items: CardView[]) => Promise<void> }) {
  const { t } = useTranslation();
  const modal = useModal('card-create');
  return (
    <Modal
      {...modal}
      title={t('payment_methods.add_title')}
      description={t('payment_methods.add_text')}
    >
      {modal.open && <AddCardForm onSaved={onSaved} />}
    </Modal>
  );
}

function AddCardForm({ onSaved }: { onSaved: (items: CardView[]) => Promise<void> }) {
  const { t } = useTranslation();
  const service = useCardService();
  const name = useSession((session) => session.user?.name ?? '');
  const card = useCardForm({ tokenizeUrl: service.data?.tokenize_url, defaultName: name });
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving || card.busy) return;
    const result = await card.tokenize();
    if (!result) return;
    setSaving(true);
    try {
      const answer = await call(billingEndpoints.cardCreate, { body: { token: result.token } });
      notify.success('payment_methods.done.added');
      card.reset();
      closeModal('card-create');
      await onSaved(answer.items);
    } catch (error) {
      if (isCancelled(error)) return;
      const declined = declineMessage(error);
      if (declined) card.setFieldError('number', declined);
      else notifyRequestError(error);
    } finally {
      setSaving(false);
    }
  };

  if (service.isPending) return <Skeleton lines={4} />;
  if (service.isError) return <LoadError error={service.error} onRetry={() => service.refetch()} />;
  if (service.data?.checkout === 'redirect') return <AddOnProviderPage />;
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" data-testid="add-card-form">
      <CardForm card={card} readOnly={saving} id="new-card" />
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" disabled={saving} onClick={() => closeModal('card-create')}>
          {t('payment_methods.cancel')}
        </Button>
        <Button type="submit" loading={saving || card.busy}>
          {t('payment_methods.save_card')}
        </Button>
      </div>
    </form>
  );
}

/** A processor whose card form is its own page (Stripe Checkout): a hop there and back. */
function AddOnProviderPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const [leaving, setLeaving] = useState(false);
  const provider = PROVIDER_NAMES[SERVICE_IDS.card];
  const go = async () => {
    setLeaving(true);
    try {
      const answer = await call(billingEndpoints.cardSetup, {
        body: { idempotency_key: crypto.randomUUID(), lang },
      });
      goToProvider(answer.redirect_url);
    } catch (error) {
      setLeaving(false);
      if (!isCancelled(error)) notifyRequestError(error);
    }
  };
  return (
    <div className="flex flex-col gap-4" data-testid="add-card-on-provider">
      <p className="text-sm text-slate-700">{t('payment_methods.add_on_provider', { provider })}</p>
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" disabled={leaving} onClick={() => closeModal('card-create')}>
          {t('payment_methods.cancel')}
        </Button>
        <Button loading={leaving} onClick={go}>
          {t('order.continue_to', { provider })}
        </Button>
      </div>
    </div>
  );
}
