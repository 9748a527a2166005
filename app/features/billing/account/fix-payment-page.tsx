import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  billingEndpoints,
  type CardView,
  type InvoiceView,
  type SubscriptionDetail,
} from '#shared/contracts/billing.ts';
import { formatMoney } from '#shared/money.ts';
import { accountActions, SERVICE_IDS } from '#shared/subscription/actions.ts';
import { call } from '../../../api/client.ts';
import { LinkButton } from '../../../layout/link-button.tsx';
import { pathFor } from '../../../routes/match-route.ts';
import { titleKey } from '../../../routes/route-titles.ts';
import { useSession } from '../../../session/session-store.ts';
import { Button } from '../../../ui/button.tsx';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { CardForm, useCardForm } from '../card-form.tsx';
import { Badge } from './badge.tsx';
import {
  INVOICES_PER_PAGE,
  useCardService,
  useCards,
  useInvoices,
  useSubscriptionDetail,
} from './billing-api.ts';
import { cardExpiry, cardExpiryState, formatBillingDate } from './billing-format.ts';
import { BillingPage } from './billing-page.tsx';
import { LoadError, Skeleton } from './load-states.tsx';
import { CardName } from './payment-method.tsx';
import { usePayment } from './use-payment.ts';

/**
 * §2 billing.fix-payment-method (§4: a recurring card or PayPal subscription on hold or
 * failed, an in-app purchase that failed): why the payment failed, then the open invoice
 * paid with a saved card or a new one, which becomes the default.
 */
export function FixPaymentPage() {
  const { t } = useTranslation();
  return (
    <BillingPage
      title={t(titleKey('billing.fix-payment-method'))}
      back={{ name: 'billing.membership2', label: t('billing_account.back_to_membership') }}
    >
      <FixContent />
    </BillingPage>
  );
}

function FixContent() {
  const { t } = useTranslation();
  const subscription = useSubscriptionDetail();
  const invoices = useInvoices(1, INVOICES_PER_PAGE);
  const finalizing = useSession((session) => session.subscription?.lastInvoiceFinalizing ?? false);
  if (subscription.isPending || invoices.isPending) return <Skeleton lines={6} />;
  if (subscription.isError || invoices.isError) {
    return (
      <LoadError
        error={subscription.error ?? invoices.error}
        onRetry={() => Promise.all([subscription.refetch(), invoices.refetch()])}
      />
    );
  }
  const detail = subscription.data;
  if (!accountActions(detail, finalizing).fixPaymentMethod) {
    return (
      <EmptyState
        title={t('fix_payment.nothing_title')}
        text={t('fix_payment.nothing_text')}
        action={
          <LinkButton name="billing.membership2">
            {t('billing_account.back_to_membership')}
          </LinkButton>
        }
      />
    );
  }
  // Newest first: the open one is the payment that failed.
  const open = invoices.data.items.find((invoice) => invoice.status === 'open');
  return (
    <>
      <FailedPayment subscription={detail} invoice={open} />
      {detail.service_id === SERVICE_IDS.inAppPurchase ? (
        <Panel id="fix-payment-store" title={t('fix_payment.pay_title')}>
          <p className="text-sm text-slate-700">{t('fix_payment.in_app')}</p>
        </Panel>
      ) : (
        <PayOpenInvoice invoice={open} />
      )}
    </>
  );
}

function FailedPayment({
  subscription,
  invoice,
}: {
  subscription: SubscriptionDetail;
  invoice: InvoiceView | undefined;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const until = subscription.grace_until ?? subscription.current_period_end;
  return (
    <div
      role="alert"
      data-testid="failed-payment"
      className="rounded-2xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
    >
      <p className="font-semibold">
        {invoice
          ? t('fix_payment.failed_amount', {
              amount: formatMoney(
                { amount: invoice.total - invoice.amount_paid, currency: invoice.currency },
                lang,
              ),
              date: formatBillingDate(invoice.issued_at, lang),
            })
          : t('fix_payment.failed')}
      </p>
      {invoice?.last_failure && (
        <p className="mt-1 break-words" data-testid="last-failure">
          {t('fix_payment.reason', { reason: invoice.last_failure })}
        </p>
      )}
      <p className="mt-1">
        {subscription.status === 'on_hold' && until
          ? t('fix_payment.access_until', { date: formatBillingDate(until, lang) })
          : t('fix_payment.access_stopped')}
      </p>
    </div>
  );
}

const NEW_CARD = 'new';

function PayOpenInvoice({ invoice }: { invoice: InvoiceView | undefined }) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const cards = useCards();
  const service = useCardService();
  const name = useSession((session) => session.user?.name ?? '');
  const cardForm = useCardForm({ tokenizeUrl: service.data?.tokenize_url, defaultName: name });
  const payment = usePayment();
  const attemptToken = useRef<{ key: string; token: string } | undefined>(undefined);
  const [picked, setPicked] = useState<string>();

  if (cards.isPending) return <Skeleton lines={4} />;
  if (cards.isError) return <LoadError error={cards.error} onRetry={() => cards.refetch()} />;
  const usable = cards.data.filter((card) => cardExpiryState(card) !== 'expired');
  // The default card (listed first) unless it has expired; a new card when none is usable.
  const choice = picked ?? usable[0]?.card_id ?? NEW_CARD;
  const due = invoice
    ? formatMoney({ amount: invoice.total - invoice.amount_paid, currency: invoice.currency }, lang)
    : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (payment.paying || cardForm.busy) return;
    let source: { token: string } | { card_id: string };
    let what: string = choice;
    if (choice === NEW_CARD) {
      // The same card details in the same attempt send the same token: a retry after a lost
      // answer is then the very same request, which the server answers with the first result.
      what = JSON.stringify(cardForm.form.getValues());
      const key = payment.attemptKey(what);
      let token = attemptToken.current?.key === key ? attemptToken.current.token : undefined;
      if (!token) {
        const result = await cardForm.tokenize();
        if (!result) return;
        token = result.token;
        attemptToken.current = { key, token };
      }
      source = { token };
    } else {
      source = { card_id: choice };
    }
    await payment.pay(
      (idempotency_key) => call(billingEndpoints.fix, { body: { ...source, idempotency_key } }),
      async () => {
        notify.success('fix_payment.done');
        await navigate(pathFor('billing.membership2', lang));
      },
      (message) => {
        if (choice === NEW_CARD) cardForm.setFieldError('number', message);
      },
      what,
    );
  };

  const savedDeclined = choice !== NEW_CARD ? payment.declined : undefined;
  return (
    <Panel id="fix-payment-pay" title={t('fix_payment.pay_title')}>
      <form noValidate onSubmit={submit} className="flex flex-col gap-5" data-testid="fix-form">
        <fieldset aria-describedby={savedDeclined ? 'fix-payment-declined' : undefined}>
          <legend className="text-sm font-medium text-slate-800">
            {t('fix_payment.pay_with')}
          </legend>
          <div className="mt-2 flex flex-col gap-2">
            {cards.data.map((card) => (
              <SavedCardOption
                key={card.card_id}
                card={card}
                checked={choice === card.card_id}
                onPick={() => {
                  payment.clearDeclined();
                  setPicked(card.card_id);
                }}
              />
            ))}
            <label className={optionClass(choice === NEW_CARD, false)}>
              <input
                type="radio"
                name="source"
                value={NEW_CARD}
                checked={choice === NEW_CARD}
                onChange={() => {
                  payment.clearDeclined();
                  setPicked(NEW_CARD);
                }}
                className="size-4 shrink-0 accent-brand-500"
              />
              <span className="text-sm font-medium text-slate-900">
                {t('fix_payment.new_card')}
              </span>
            </label>
          </div>
          {savedDeclined && (
            <p id="fix-payment-declined" role="alert" className="mt-2 text-sm text-red-600">
              {t(savedDeclined)}
            </p>
          )}
        </fieldset>
        {choice === NEW_CARD &&
          (service.isError ? (
            <LoadError error={service.error} onRetry={() => service.refetch()} />
          ) : (
            <CardForm card={cardForm} readOnly={payment.paying} id="fix-card" />
          ))}
        <p className="text-xs text-slate-500">{t('fix_payment.becomes_default')}</p>
        <div>
          <Button type="submit" loading={payment.paying || cardForm.busy}>
            {due ? t('fix_payment.pay_amount', { amount: due }) : t('fix_payment.pay')}
          </Button>
        </div>
      </form>
    </Panel>
  );
}

const optionClass = (checked: boolean, disabled: boolean) =>
  `flex items-center gap-3 rounded-xl border p-3 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-500 ${disabled ? 'cursor-not-allowed border-slate-200 opacity-60' : `cursor-pointer ${checked ? 'border-brand-500 bg-brand-50' : 'border-slate-200 hover:border-slate-300'}`}`;

function SavedCardOption({
  card,
  checked,
  onPick,
}: {
  card: CardView;
  checked: boolean;
  onPick: () => void;
}) {
  const { t } = useTranslation();
  const expired = cardExpiryState(card) === 'expired';
  return (
    <label className={optionClass(checked, expired)} data-testid="saved-card">
      <input
        type="radio"
        name="source"
        value={card.card_id}
        checked={checked}
        disabled={expired}
        onChange={onPick}
        className="size-4 shrink-0 accent-brand-500"
      />
      <span className="flex min-w-0 flex-wrap items-center gap-2 text-sm">
        <span className="font-medium text-slate-900">
          <CardName card={card} />
        </span>
        <span className="text-slate-500">
          {t('billing_account.card_expires', { expiry: cardExpiry(card) })}
        </span>
        {card.default && <Badge tone="brand">{t('payment_methods.default')}</Badge>}
        {expired && <Badge tone="red">{t('payment_methods.expired')}</Badge>}
      </span>
    </label>
  );
}
