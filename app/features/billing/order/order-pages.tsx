import { useTranslation } from 'react-i18next';
import { QueryProvider } from '../../../api/query-provider.tsx';
import { OrderFlow } from './order-flow.tsx';

/** §2 order2 (visitors and unverified users), billing.order2 and order: buy a plan. */
export function OrderPage() {
  const { t } = useTranslation();
  return (
    <QueryProvider>
      <OrderFlow kind="checkout" title={t('order.title')} intro={t('order.intro')} />
    </QueryProvider>
  );
}

/** §2 billing.reactivate2: subscribe again after an expired or refunded subscription (§4). */
export function ReactivatePlanPage() {
  const { t } = useTranslation();
  return (
    <QueryProvider>
      <OrderFlow
        kind="reactivate"
        title={t('order.reactivate_title')}
        intro={t('order.reactivate_intro')}
      />
    </QueryProvider>
  );
}

/** §2 billing.bonus-upgrade: bonus days (service 5) into a paid plan (§4). */
export function BonusUpgradePage() {
  const { t } = useTranslation();
  return (
    <QueryProvider>
      <OrderFlow
        kind="upgradeBonus"
        title={t('order.bonus_title')}
        intro={t('order.bonus_intro')}
      />
    </QueryProvider>
  );
}
