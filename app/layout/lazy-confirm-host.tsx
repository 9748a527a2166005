import { lazy, Suspense } from 'react';
import { useConfirmHost } from '../ui/confirm.ts';

const PendingConfirmDialog = lazy(() =>
  import('../ui/confirm-dialog.tsx').then((module) => ({ default: module.PendingConfirmDialog })),
);

/** Answers confirm() for the whole app; the dialog's code loads with the first question. */
export function LazyConfirmHost() {
  const request = useConfirmHost();
  if (!request) return null;
  return (
    <Suspense fallback={null}>
      <PendingConfirmDialog request={request} />
    </Suspense>
  );
}
