import i18next, { type TOptions } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Toaster as SonnerToaster, toast } from 'sonner';
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

// Keys are translated when the toast is raised, so callers outside React (query callbacks,
// the realtime connection) need no `t` of their own.
function show(kind: 'success' | 'error', key: string, options: NotifyOptions = {}) {
  const { description, values, duration } = options;
  return toast[kind](i18next.t(key, values), {
    description: description === undefined ? undefined : i18next.t(description, values),
    duration,
  });
}

export const notify = {
  success: (key: string, options?: NotifyOptions) => show('success', key, options),
  /** Destructive style: failures, and §8's danger successes (2fa_disabled, delete_account). */
  danger: (key: string, options?: NotifyOptions) => show('error', key, options),
  dismissAll: () => toast.dismiss(),
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

/** Mount once near the root. */
export function Toaster() {
  const { t } = useTranslation();
  return (
    <SonnerToaster
      position="top-right"
      richColors
      closeButton
      containerAriaLabel={t('ui.toast.region')}
      toastOptions={{ closeButtonAriaLabel: t('ui.toast.close') }}
    />
  );
}
