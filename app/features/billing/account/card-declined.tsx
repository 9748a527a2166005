import { useTranslation } from 'react-i18next';
import { RouteLink } from '../../../layout/route-link.tsx';

/** A refused card's message, with the way to the saved cards. */
export function CardDeclined({
  message,
  className = '',
}: {
  message: string | undefined;
  className?: string;
}) {
  const { t } = useTranslation();
  if (!message) return null;
  return (
    <div
      role="alert"
      data-testid="card-declined"
      className={`rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700 ${className}`}
    >
      <p>{t(message)}</p>
      <RouteLink
        name="billing.payment-methods"
        className="mt-1 inline-block font-medium underline focus-visible:outline-2 focus-visible:outline-brand-500"
      >
        {t('billing_account.manage_payment_methods')}
      </RouteLink>
    </div>
  );
}
