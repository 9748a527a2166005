import { useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { CHALLENGE_PARAM } from '#shared/challenge.ts';
import type { AuthUser } from '#shared/contracts/auth-user.ts';
import { failureMessage } from '../../api/api-error.ts';
import { dashboardFor } from '../../guards/decide.ts';
import { pathFor } from '../../routes/match-route.ts';
import { useSession } from '../../session/session-store.ts';
import { signOut } from '../../session/sign-out.ts';
import { Button } from '../../ui/button.tsx';
import { FormError } from '../../ui/form-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { notify } from '../../ui/toast.tsx';
import { authApi } from './auth-api.ts';
import { AuthCard } from './auth-card.tsx';
import { startSession } from './auth-session.ts';
import { useLang } from './use-lang.ts';

// One request per challenge for the life of the page: StrictMode's second effect run, and any
// remount, wait for the request already sent instead of spending the one-time token again.
const verifications = new Map<string, Promise<AuthUser>>();

function verifyOnce(challenge: string): Promise<AuthUser> {
  let pending = verifications.get(challenge);
  if (!pending) {
    pending = authApi.verifyEmail({ challenge }).then(({ user }) => {
      // The session changes even if the user has left the page meanwhile.
      startSession(user);
      return user;
    });
    verifications.set(challenge, pending);
  }
  return pending;
}

/**
 * §2 email.verify: with `?challenge=` from the e-mailed link it verifies at once; without
 * one it is where the guard keeps an unverified user (§2 priority 8) until they do.
 */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const challenge = params.get(CHALLENGE_PARAM);
  return challenge ? <CheckChallenge key={challenge} challenge={challenge} /> : <AwaitLink />;
}

function CheckChallenge({ challenge }: { challenge: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string>();

  useEffect(() => {
    let current = true;
    verifyOnce(challenge).then(
      (user) => {
        if (!current) return;
        notify.success('auth.verify.verified');
        void navigate(pathFor(dashboardFor(user.role), lang), { replace: true });
      },
      (error: unknown) => {
        if (current) setFailure(failureMessage(error));
      },
    );
    return () => {
      current = false;
    };
  }, [challenge, lang, navigate]);

  if (failure === undefined) {
    return (
      <AuthCard title={t('auth.verify.title')}>
        <div role="status" className="flex items-center gap-3 text-sm text-slate-700">
          <Spinner decorative className="text-brand-500" />
          <span>{t('auth.verify.checking')}</span>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('auth.verify.failed_title')} focusTitle>
      <FormError message={failure} className="mb-6" />
      <ResendButton
        label="auth.verify.send_new"
        // From a failed link back to the plain "check your inbox" state.
        onSent={() => navigate(pathFor('email.verify', lang), { replace: true })}
      />
    </AuthCard>
  );
}

function AwaitLink() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const email = useSession((session) => session.user?.email);
  const [signingOut, setSigningOut] = useState(false);

  const leave = async () => {
    setSigningOut(true);
    await signOut(() => navigate(pathFor('signin', lang), { replace: true }));
  };

  return (
    <AuthCard title={t('auth.verify.title')}>
      <div className="flex flex-col gap-3 text-sm text-slate-700">
        <p data-testid="verify-sent-to">
          <Trans
            i18nKey="auth.verify.sent"
            values={{ email: email ?? '' }}
            components={{ strong: <strong className="font-medium break-all text-slate-900" /> }}
          />
        </p>
        <p className="text-slate-600">{t('auth.verify.instructions')}</p>
      </div>
      <div className="mt-6 flex flex-col gap-3">
        <ResendButton label="auth.verify.resend" />
        <p className="text-sm text-slate-600">{t('auth.verify.wrong_account')}</p>
        <Button variant="secondary" loading={signingOut} onClick={leave}>
          {t('auth.verify.sign_out')}
        </Button>
      </div>
    </AuthCard>
  );
}

/**
 * Sends a new link to the signed-in user. A refusal (too many requests, §7 rate limits)
 * stays on screen under the button, where the user is looking.
 */
function ResendButton({
  label,
  onSent,
}: {
  label: 'auth.verify.resend' | 'auth.verify.send_new';
  onSent?: () => unknown;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string>();

  const resend = async () => {
    setSending(true);
    setFailure(undefined);
    try {
      await authApi.resendVerification(lang);
      notify.success('auth.verify.resent');
      await onSent?.();
    } catch (error) {
      setFailure(failureMessage(error));
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <Button loading={sending} onClick={resend}>
        {t(label)}
      </Button>
      <FormError message={failure} />
    </div>
  );
}
