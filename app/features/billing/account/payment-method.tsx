import { useTranslation } from 'react-i18next';
import type { PaymentMethodType } from '#shared/billing/billing-values.ts';
import type { CardView, SubscriptionDetail } from '#shared/contracts/billing.ts';
import { cardBrandName, cardExpiry } from './billing-format.ts';

const METHOD_NAMES: Record<Exclude<PaymentMethodType, 'card'>, string> = {
  paypal: 'billing_account.method.paypal',
  in_app: 'billing_account.method.in_app',
  crypto: 'billing_account.method.crypto',
  bonus: 'billing_account.method.bonus',
};

/** "Visa •••• 4242". */
export function CardName({ card }: { card: Pick<CardView, 'brand' | 'last4'> }) {
  const { t } = useTranslation();
  return (
    <>{t('billing_account.card_number', { brand: cardBrandName(card.brand), last4: card.last4 })}</>
  );
}

/** How a subscription is paid: the card with its expiry, or the provider. */
export function PaymentMethod({ method }: { method: SubscriptionDetail['payment_method'] }) {
  const { t } = useTranslation();
  if (method.type === 'card') {
    if (!method.card) return <>{t('billing_account.method.card')}</>;
    return (
      <span className="flex flex-col">
        <span>
          <CardName card={method.card} />
        </span>
        <span className="text-xs text-slate-500">
          {t('billing_account.card_expires', { expiry: cardExpiry(method.card) })}
        </span>
      </span>
    );
  }
  return <>{t(METHOD_NAMES[method.type])}</>;
}
