import { useCallback, useState } from 'react';
import { notifyRequestError } from './toast.tsx';

/**
 * Runs a button's request: `busy` names the one running (for its spinner, and to hold the
 * others back), and a failure is shown as the §8 danger toast.
 */
export function useBusyAction<K extends string = 'run'>() {
  const [busy, setBusy] = useState<K>();
  const run = useCallback(async (key: K, action: () => Promise<unknown>) => {
    setBusy(key);
    try {
      await action();
    } catch (error) {
      notifyRequestError(error);
    } finally {
      setBusy(undefined);
    }
  }, []);
  return { busy, run };
}
