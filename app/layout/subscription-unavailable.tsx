import { useTranslation } from 'react-i18next';
import { useRevalidator } from 'react-router';
import { Button } from '../ui/button.tsx';

/**
 * A route whose guard reads the current subscription (§2 billing rules, the order pages)
 * when fetching it failed: the route cannot be decided, so instead of guessing "no
 * subscription" (and sending a subscriber elsewhere) the page says so and tries again on
 * request, running the guard anew.
 */
export function SubscriptionUnavailable() {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  return (
    <section
      className="mx-auto max-w-lg px-6 py-24 text-center"
      role="alert"
      data-testid="subscription-unavailable"
    >
      <h1 className="text-2xl font-semibold text-slate-900">
        {t('current_subscription.unavailable_title')}
      </h1>
      <p className="mt-3 text-slate-600">{t('current_subscription.unavailable_text')}</p>
      <Button
        className="mt-6"
        loading={revalidator.state === 'loading'}
        onClick={() => void revalidator.revalidate()}
      >
        {t('current_subscription.retry')}
      </Button>
    </section>
  );
}
