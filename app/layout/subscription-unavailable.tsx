import { useTranslation } from 'react-i18next';
import { useRevalidator } from 'react-router';

/**
 * A route whose guard reads the current subscription (§2 billing rules, the order pages)
 * when fetching it failed: the route cannot be decided, so instead of guessing "no
 * subscription" (and sending a subscriber elsewhere) the page says so and tries again on
 * request, running the guard anew. Only billing-area routes meet it, and their messages
 * (the lazy `billing` part) have loaded with the route; its few lines stay in the shell,
 * since a chunk of its own would split the first bundle's shared code.
 */
export function SubscriptionUnavailable() {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const busy = revalidator.state === 'loading';
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
      <button
        type="button"
        className="mt-6 rounded-lg bg-brand-500 px-4 py-2 font-medium text-white hover:bg-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 aria-busy:opacity-70"
        aria-busy={busy}
        onClick={() => {
          if (!busy) void revalidator.revalidate();
        }}
      >
        {t('current_subscription.retry')}
      </button>
    </section>
  );
}
