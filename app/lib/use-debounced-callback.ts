import { useCallback, useEffect, useRef } from 'react';

/**
 * `callback`, run `delayMs` after the last call (§9: two-factor submit 500 ms, reactivation
 * 300 ms): a burst of keystrokes or clicks makes one request. A pending run is dropped when
 * the component goes away.
 */
export function useDebouncedCallback<Args extends unknown[]>(
  callback: (...args: Args) => unknown,
  delayMs: number,
): (...args: Args) => void {
  const latest = useRef(callback);
  latest.current = callback;
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(
    (...args: Args) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void latest.current(...args), delayMs);
    },
    [delayMs],
  );
}
