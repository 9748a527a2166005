import { useTranslation } from 'react-i18next';
import { failureMessage } from '../../../api/api-error.ts';
import { Button } from '../../../ui/button.tsx';

/** Grey lines where content is on its way; says "Loading" to screen readers. */
export function Skeleton({ lines = 3, className = '' }: { lines?: number; className?: string }) {
  const { t } = useTranslation();
  return (
    <div role="status" aria-busy="true" className={`flex flex-col gap-3 ${className}`}>
      <span className="sr-only">{t('ui.loading')}</span>
      {Array.from({ length: lines }, (_, index) => (
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
          key={index}
          aria-hidden="true"
          className={`h-4 animate-pulse rounded bg-slate-200 ${index % 3 === 2 ? 'w-1/2' : index % 2 ? 'w-3/4' : 'w-full'}`}
        />
      ))}
    </div>
  );
}

/** A region that could not load: why, and Try again. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => unknown }) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      className="flex flex-col items-start gap-3 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800"
    >
      <p className="font-medium">{t('billing_account.load_failed')}</p>
      <p>{t(failureMessage(error))}</p>
      <Button variant="secondary" onClick={() => onRetry()}>
        {t('billing_account.retry')}
      </Button>
    </div>
  );
}
