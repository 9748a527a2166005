import { useTranslation } from 'react-i18next';
import { titleKey } from '../../../routes/route-titles.ts';
import { BillingAddressPanel } from './billing-address-panel.tsx';
import { BillingPage } from './billing-page.tsx';
import { CardsPanel } from './cards-panel.tsx';

/** §2 billing.payment-methods: saved cards and the billing address. */
export function PaymentMethodsPage() {
  const { t } = useTranslation();
  return (
    <BillingPage title={t(titleKey('billing.payment-methods'))} tabs>
      <CardsPanel />
      <BillingAddressPanel />
    </BillingPage>
  );
}
