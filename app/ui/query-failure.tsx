import { failureMessage } from '../api/api-error.ts';
import { Button } from './button.tsx';
import { FormError } from './form-field.tsx';

/** What a panel shows when its data did not load: why, and a way to ask again. */
export function QueryFailure({
  error,
  onRetry,
  retryLabel,
}: {
  error: unknown;
  onRetry: () => void;
  retryLabel: string;
}) {
  return (
    <div className="flex flex-col items-start gap-3">
      <FormError message={failureMessage(error)} />
      <Button variant="secondary" onClick={onRetry}>
        {retryLabel}
      </Button>
    </div>
  );
}
