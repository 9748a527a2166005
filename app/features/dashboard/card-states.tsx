import { useTranslation } from 'react-i18next';
import { failureMessage } from '../../api/api-error.ts';
import { Button } from '../../ui/button.tsx';

/** Grey lines while a card loads; says "Loading" to screen readers. */
export function CardSkeleton({ lines = 3 }: { lines?: number }) {
  const { t } = useTranslation();
  return (
    <div role="status" aria-busy="true" className="flex flex-col gap-3">
      <span className="sr-only">{t('dashboard.loading')}</span>
      {Array.from({ length: lines }, (_, index) => (
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
          key={index}
          aria-hidden="true"
          className={`h-4 animate-pulse rounded bg-slate-200 ${index % 2 ? 'w-2/3' : 'w-full'}`}
        />
      ))}
    </div>
  );
}

/** A card that could not load: why, and Try again (the rest of the page stays usable). */
export function CardError({ error, onRetry }: { error: unknown; onRetry: () => unknown }) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      className="flex flex-col items-start gap-3 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800"
    >
      <p className="font-medium">{t('dashboard.load_failed')}</p>
      <p>{t(failureMessage(error))}</p>
      <Button variant="secondary" onClick={() => onRetry()}>
        {t('dashboard.retry')}
      </Button>
    </div>
  );
}
