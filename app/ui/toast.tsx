import i18next, { type TOptions } from 'i18next';
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { isApiError, isCancelled } from '../api/api-error.ts';

/** §8: request errors stay on screen for five seconds. */
export const REQUEST_ERROR_DURATION_MS = 5_000;

export interface NotifyOptions {
  /** An i18n key for a second line (e.g. toasts.change_email_p2). */
  description?: string;
  /** Interpolation values for both keys. */
  values?: TOptions;
  duration?: number;
}

// Toasts are rare on the public home, so their library (sonner) comes with the first one:
// the toaster mounts, then the toast is shown. Until then nothing of it is downloaded.
type Sonner = typeof import('sonner');
const SonnerToaster = lazy(() =>
  import('./sonner-toaster.tsx').then((m) => ({ default: m.SonnerToaster })),
);
let mountedToaster: () => void = () => {};
const toasterMounted = new Promise<void>((resolve) => {
  mountedToaster = resolve;
});
let sonner: Promise<Sonner> | undefined;
const listeners = new Set<() => void>();

function loadSonner(): Promise<Sonner> {
  if (!sonner) {
    sonner = Promise.all([import('sonner'), toasterMounted]).then(([module]) => module);
    for (const listener of listeners) listener();
  }
  return sonner;
}

// Keys are translated when the toast is raised, so callers outside React (query callbacks,
// the realtime connection) need no `t` of their own.
function show(kind: 'success' | 'error', key: string, options: NotifyOptions = {}): void {
  const { description, values, duration } = options;
  const title = i18next.t(key, values);
  const text = description === undefined ? undefined : i18next.t(description, values);
  void loadSonner().then(({ toast }) => toast[kind](title, { description: text, duration }));
}

export const notify = {
  success: (key: string, options?: NotifyOptions) => show('success', key, options),
  /** Destructive style: failures, and §8's danger successes (2fa_disabled, delete_account). */
  danger: (key: string, options?: NotifyOptions) => show('error', key, options),
  dismissAll: () => {
    void sonner?.then(({ toast }) => toast.dismiss());
  },
};

/**
 * §8: a failed request shows a danger toast for five seconds (unless it was cancelled on
 * purpose); any other error is a bug, so it is logged rather than shown.
 */
export function notifyRequestError(error: unknown): void {
  if (isCancelled(error)) return;
  if (isApiError(error)) {
    notify.danger(error.messageKey, { duration: REQUEST_ERROR_DURATION_MS });
    return;
  }
  console.error(error);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Mount once near the root: it renders the toaster once a toast is first raised. */
export function Toaster() {
  const wanted = useSyncExternalStore(subscribe, () => sonner !== undefined);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster onMounted={mountedToaster} />
    </Suspense>
  );
}
