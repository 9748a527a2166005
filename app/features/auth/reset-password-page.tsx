import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AUTH_MESSAGES } from '#shared/contracts/auth.ts';
import { passwordPairSchema } from '#shared/validation/password.ts';
import { isApiError } from '../../api/api-error.ts';
import { RouteLink } from '../../layout/route-link.tsx';
import { pathFor } from '../../routes/match-route.ts';
import { clearResetValue, resetValue } from '../../session/browser-storage.ts';
import { applyApiErrors } from '../../ui/api-form-errors.ts';
import { Button } from '../../ui/button.tsx';
import { FormError } from '../../ui/form-field.tsx';
import { NewPasswordFields } from '../../ui/new-password-fields.tsx';
import { notify } from '../../ui/toast.tsx';
import { authApi } from './auth-api.ts';
import { AuthCard } from './auth-card.tsx';
import { useLang } from './use-lang.ts';

const FIELDS = ['password', 'password_confirmation'] as const;
const newPassword = passwordPairSchema();

/** What the server answers for a reset link that is unknown, used or expired. */
const LINK_INVALID = AUTH_MESSAGES.linkInvalid;

function isDeadLink(error: unknown): boolean {
  return (
    isApiError(error) && (error.info.includes(LINK_INVALID) || 'challenge' in error.validation)
  );
}

/**
 * §2 password.reset. The e-mailed link went through password.forgot.verify, which put its
 * challenge in session storage (§2 "one-time value") and came here without it in the URL.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  // Read once: the guard checked it before this screen opened; it is cleared when used up.
  const [challenge, setChallenge] = useState(resetValue);
  const [formError, setFormError] = useState<string>();
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm({
    resolver: zodResolver(newPassword),
    defaultValues: { password: '', password_confirmation: '' },
  });

  const submit = handleSubmit(async (values) => {
    if (challenge === null) return;
    setFormError(undefined);
    try {
      await authApi.resetPassword({ ...values, challenge });
      clearResetValue();
      notify.success('toasts.password_changed');
      await navigate(pathFor('signin', lang), { replace: true });
    } catch (error) {
      const message = applyApiErrors(error, setError, FIELDS);
      if (isDeadLink(error)) {
        clearResetValue();
        setChallenge(null);
      }
      setFormError(message);
    }
  });

  const requestNew = (
    <RouteLink
      name="password.forgot"
      className="inline-flex min-h-10 w-full items-center justify-center rounded-lg bg-brand-500 px-4 text-sm font-medium text-white hover:bg-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
    >
      {t('auth.reset.request_new')}
    </RouteLink>
  );

  if (challenge === null) {
    return (
      <AuthCard key="dead" title={t('auth.reset.title')} focusTitle={isSubmitted}>
        {formError ? (
          <FormError message={formError} className="mb-6" />
        ) : (
          <p className="mb-6 text-sm text-slate-700">{t('auth.reset.missing')}</p>
        )}
        {requestNew}
      </AuthCard>
    );
  }

  return (
    <AuthCard key="form" title={t('auth.reset.title')} lead={t('auth.reset.lead')}>
      <form noValidate onSubmit={submit} className="flex flex-col">
        <NewPasswordFields
          password={register('password')}
          confirmation={register('password_confirmation')}
          value={watch('password')}
          passwordError={errors.password?.message}
          confirmationError={errors.password_confirmation?.message}
          submitted={isSubmitted}
        />
        <FormError message={formError} className="mb-4" />
        <Button type="submit" loading={isSubmitting}>
          {t('auth.reset.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
