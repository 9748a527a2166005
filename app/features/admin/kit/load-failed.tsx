import { useTranslation } from 'react-i18next';
import { failureMessage } from '../../../api/api-error.ts';
import { Button } from '../../../ui/button.tsx';
import { EmptyState } from '../../../ui/empty-state.tsx';

/** A staff screen's data did not load: why, and a way to ask again. */
export function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <EmptyState
      title={t('staff.kit.load_failed')}
      text={error ? t(failureMessage(error)) : undefined}
      action={
        <Button variant="secondary" onClick={onRetry}>
          {t('staff.kit.retry')}
        </Button>
      }
    />
  );
}
