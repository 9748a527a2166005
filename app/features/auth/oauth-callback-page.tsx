import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ApiError, failureMessage } from '../../api/api-error.ts';
import { RouteLink } from '../../layout/route-link.tsx';
import { FormError } from '../../ui/form-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { AuthCard, linkClass } from './auth-card.tsx';
import { completeOAuth, readCallback } from './oauth-sign-in.ts';
import { useSignInOutcome } from './use-sign-in-outcome.tsx';

// One exchange per page load: the code is single use (StrictMode runs effects twice).
let exchange: { search: string; answer: ReturnType<typeof completeOAuth> } | undefined;

/**
 * Where the provider sends the browser back. In the popup, the page that opened it reads
 * the result and closes us (§4 "OAuth popup closes when the sign-in token arrives"). Opened
 * without a popup (the browser blocked it), this page finishes the sign-in itself.
 */
export function OAuthCallbackPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const inPopup =
    typeof window !== 'undefined' && window.opener !== null && window.opener !== window;
  const [failure, setFailure] = useState<string>();
  const { onOutcome, secondStep } = useSignInOutcome((message) =>
    setFailure(message ?? 'errors.sign_in_expired'),
  );

  // The exchange runs once per callback URL; onOutcome follows the page's location.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    if (inPopup) return;
    const result = readCallback(search);
    if (result instanceof ApiError) {
      setFailure(failureMessage(result));
      return;
    }
    if (exchange?.search !== search) exchange = { search, answer: completeOAuth(result) };
    exchange.answer.then(onOutcome, (error: unknown) => setFailure(failureMessage(error)));
  }, [inPopup, search]);

  if (secondStep) return secondStep;
  if (failure) {
    return (
      <AuthCard title={t('auth.social.failed_title')} focusTitle>
        <FormError message={failure} className="mb-6" />
        <RouteLink name="signin" className={linkClass}>
          {t('auth.social.back')}
        </RouteLink>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('auth.social.finishing_title')}>
      <div role="status" className="flex items-center gap-3 text-sm text-slate-700">
        <Spinner decorative className="text-brand-500" />
        <span>{t('auth.social.finishing')}</span>
      </div>
    </AuthCard>
  );
}
