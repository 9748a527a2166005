import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { CHALLENGE_PARAM } from '#shared/challenge.ts';
import { passwordPairSchema } from '#shared/validation/password.ts';
import { dashboardFor } from '../../guards/decide.ts';
import { pathFor } from '../../routes/match-route.ts';
import { useSession } from '../../session/session-store.ts';
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

/**
 * §2 password.set: a signed-in account made without a password (by staff, by social
 * sign-in) chooses one, with the challenge its e-mailed link carries (the guard has
 * checked that it is there and well formed; the server checks that it is valid).
 */
export function SetPasswordPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const role = useSession((session) => session.user?.role);
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
    setFormError(undefined);
    try {
      await authApi.setPassword({ ...values, challenge: params.get(CHALLENGE_PARAM) ?? '' });
      notify.success('toasts.password_changed');
      await navigate(pathFor(dashboardFor(role), lang), { replace: true });
    } catch (error) {
      // A dead link comes back as a message about the challenge, which no field here shows.
      setFormError(applyApiErrors(error, setError, FIELDS));
    }
  });

  return (
    <AuthCard title={t('auth.set.title')} lead={t('auth.set.lead')}>
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
          {t('auth.set.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
