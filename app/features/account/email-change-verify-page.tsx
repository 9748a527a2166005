import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { CHALLENGE_PARAM } from '#shared/challenge.ts';
import type { AuthUser } from '#shared/contracts/auth-user.ts';
import { failureMessage } from '../../api/api-error.ts';
import { RouteLink } from '../../layout/route-link.tsx';
import { pathFor } from '../../routes/match-route.ts';
import { FormError } from '../../ui/form-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { notify } from '../../ui/toast.tsx';
import { AuthCard, linkClass } from '../auth/auth-card.tsx';
import { useLang } from '../auth/use-lang.ts';
import type { AccountApi } from './account-api.ts';
import { useAccount } from './use-account.ts';

// One request per challenge for the life of the page (StrictMode runs effects twice).
const confirmations = new Map<string, Promise<AuthUser>>();

function confirmOnce(api: AccountApi, challenge: string): Promise<AuthUser> {
  let pending = confirmations.get(challenge);
  if (!pending) {
    pending = api.confirmEmailChange(challenge).then(({ user }) => user);
    confirmations.set(challenge, pending);
  }
  return pending;
}

/**
 * §2 account.email.change.verify (and the admin one): the link from the new mailbox. The
 * guard has checked that its address is the pending one (§6 temporary-email challenge).
 */
export function EmailChangeVerifyPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const challenge = params.get(CHALLENGE_PARAM) ?? '';
  const { api, routes, applyUser } = useAccount();
  const [failure, setFailure] = useState<string>();

  useEffect(() => {
    let current = true;
    confirmOnce(api, challenge).then(
      async (user) => {
        if (!current) return;
        await applyUser(user);
        notify.success('settings.email_change.confirmed');
        await navigate(pathFor(routes.profile, lang), { replace: true });
      },
      (error: unknown) => current && setFailure(failureMessage(error)),
    );
    return () => {
      current = false;
    };
  }, [api, challenge, applyUser, navigate, routes.profile, lang]);

  if (failure === undefined) {
    return (
      <AuthCard title={t('settings.email_change.verify_title')}>
        <div role="status" className="flex items-center gap-3 text-sm text-slate-700">
          <Spinner decorative className="text-brand-500" />
          <span>{t('settings.email_change.checking')}</span>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('settings.email_change.failed_title')} focusTitle>
      <FormError message={failure} className="mb-6" />
      <RouteLink name={routes.profile} className={linkClass}>
        {t('settings.email_change.back')}
      </RouteLink>
    </AuthCard>
  );
}
