import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { billingEndpoints, type CardView } from '#shared/contracts/billing.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { closeModal, openModal, useModalFlag } from '../../../ui/modal-flags.ts';
import { Panel } from '../../../ui/panel.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useBusyAction } from '../../../ui/use-busy-action.ts';
import { AddCardDialog } from './add-card-dialog.tsx';
import { Badge } from './badge.tsx';
import { billingKeys, defaultFirst, useCards } from './billing-api.ts';
import { cardBrandName, cardExpiry, cardExpiryState } from './billing-format.ts';
import { CardExpiryDialog } from './card-expiry-dialog.tsx';
import { LoadError, Skeleton } from './load-states.tsx';
import { CardName } from './payment-method.tsx';
import { useApplyUser } from './use-apply-user.ts';

/**
 * §3 Card sources, the default first: each with its expiry (§5 expired, or soon), made the
 * default, given a new expiry or removed; and a new card from the card form.
 */
export function CardsPanel() {
  const { t } = useTranslation();
  const cards = useCards();
  const queryClient = useQueryClient();
  const applyUser = useApplyUser();
  const { busy, run } = useBusyAction<string>();
  const [editing, setEditing] = useState<CardView>();
  const editOpen = useModalFlag('card-edit');

  // Every card call answers the whole list; the subscription's card may have changed too.
  const show = async (items: CardView[]) => {
    queryClient.setQueryData(billingKeys.cards, { items: defaultFirst(items) });
    await queryClient.invalidateQueries({ queryKey: billingKeys.subscription });
  };
  const nameOf = (card: CardView) =>
    t('billing_account.card_number', { brand: cardBrandName(card.brand), last4: card.last4 });

  const makeDefault = (card: CardView) =>
    run(`default-${card.card_id}`, async () => {
      const answer = await call(billingEndpoints.setDefaultSource, {
        body: { card_id: card.card_id },
      });
      // §4 reaction 2: the stored user's default source follows.
      await applyUser(answer.user);
      notify.success('payment_methods.done.default', { values: { card: nameOf(card) } });
      await show(answer.items);
    });

  const remove = (card: CardView) =>
    confirm({
      title: t('payment_methods.delete.title'),
      text: t('payment_methods.delete.text', { card: nameOf(card) }),
      icon: 'danger',
      actionName: 'card-delete',
      modal: 'card-delete',
      yes: { label: t('payment_methods.delete.confirm') },
      // A card a running subscription is charged to is refused: its message stays here.
      onConfirm: async () => {
        const answer = await call(billingEndpoints.cardDelete, {
          body: { card_id: card.card_id },
        });
        notify.success('payment_methods.done.deleted', { values: { card: nameOf(card) } });
        await show(answer.items);
      },
    });

  const edit = (card: CardView) => {
    setEditing(card);
    openModal('card-edit');
  };

  return (
    <Panel
      id="payment-cards"
      title={t('payment_methods.cards_title')}
      description={t('payment_methods.cards_text')}
      actions={
        <Button variant="secondary" onClick={() => openModal('card-create')}>
          {t('payment_methods.add')}
        </Button>
      }
    >
      {cards.isPending ? (
        <Skeleton lines={4} />
      ) : cards.isError ? (
        <LoadError error={cards.error} onRetry={() => cards.refetch()} />
      ) : cards.data.length === 0 ? (
        <EmptyState
          title={t('payment_methods.empty_title')}
          text={t('payment_methods.empty_text')}
          className="py-6"
        />
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="cards">
          {cards.data.map((card) => {
            const expiry = cardExpiryState(card);
            const name = nameOf(card);
            return (
              <li
                key={card.card_id}
                data-testid="card"
                data-default={card.default}
                className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                    <CardName card={card} />
                    {card.default && <Badge tone="brand">{t('payment_methods.default')}</Badge>}
                    {expiry === 'expired' && (
                      <Badge tone="red" testId="card-expired">
                        {t('payment_methods.expired')}
                      </Badge>
                    )}
                    {expiry === 'soon' && (
                      <Badge tone="amber" testId="card-expires-soon">
                        {t('payment_methods.expires_soon')}
                      </Badge>
                    )}
                  </p>
                  <p className="mt-0.5 text-xs text-slate-500">
                    {t('billing_account.card_expires', { expiry: cardExpiry(card) })}
                  </p>
                </div>
                <div className="flex flex-wrap gap-2">
                  {!card.default && expiry !== 'expired' && (
                    <Button
                      variant="secondary"
                      loading={busy === `default-${card.card_id}`}
                      disabled={busy !== undefined && busy !== `default-${card.card_id}`}
                      onClick={() => makeDefault(card)}
                    >
                      {t('payment_methods.make_default')}
                      <span className="sr-only">{` ${name}`}</span>
                    </Button>
                  )}
                  <Button variant="ghost" onClick={() => edit(card)}>
                    {t('payment_methods.edit_expiry')}
                    <span className="sr-only">{` ${name}`}</span>
                  </Button>
                  <Button
                    variant="ghost"
                    className="text-red-700 hover:bg-red-50"
                    onClick={() => remove(card)}
                  >
                    {t('payment_methods.remove')}
                    <span className="sr-only">{` ${name}`}</span>
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <CardExpiryDialog
        card={editOpen ? editing : undefined}
        onClose={() => closeModal('card-edit')}
        onSaved={show}
      />
      <AddCardDialog onSaved={show} />
    </Panel>
  );
}
