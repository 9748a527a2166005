import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { signInRequest } from '#shared/contracts/auth.ts';
import { afterLogin } from '../../guards/after-login.ts';
import { RouteLink } from '../../layout/route-link.tsx';
import { applyApiErrors } from '../../ui/api-form-errors.ts';
import { Button } from '../../ui/button.tsx';
import { FormError } from '../../ui/form-field.tsx';
import { TextInput } from '../../ui/text-input.tsx';
import { authApi } from './auth-api.ts';
import { AuthCard, FieldSlot, linkClass } from './auth-card.tsx';
import { startSession } from './auth-session.ts';
import { useLang } from './use-lang.ts';

const FIELDS = ['email', 'password'] as const;

/** §2 signin: e-mail and password; then wherever the sign-in link asked to go (§2 After login). */
export function SignInPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const location = useLocation();
  const navigate = useNavigate();
  const [formError, setFormError] = useState<string>();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(signInRequest),
    defaultValues: { email: '', password: '' },
  });

  const submit = handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      const { user } = await authApi.signIn(values);
      startSession(user);
      const next = afterLogin(
        new URLSearchParams(location.search),
        user.role,
        lang,
        window.location.origin,
      );
      if (next.kind === 'url') window.location.assign(next.href);
      else await navigate(next.to, { replace: true });
    } catch (error) {
      setFormError(applyApiErrors(error, setError, FIELDS));
    }
  });

  return (
    <AuthCard
      title={t('auth.signin.title')}
      lead={t('auth.signin.lead')}
      footer={
        <>
          {t('auth.signin.no_account')}{' '}
          <RouteLink name="signup" className={linkClass}>
            {t('auth.signin.signup')}
          </RouteLink>
        </>
      }
    >
      <form noValidate onSubmit={submit} className="flex flex-col">
        <FieldSlot>
          <TextInput
            label={t('auth.fields.email')}
            type="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            required
            {...register('email')}
            error={errors.email?.message}
          />
        </FieldSlot>
        <FieldSlot>
          <TextInput
            label={t('auth.fields.password')}
            type="password"
            autoComplete="current-password"
            required
            {...register('password')}
            error={errors.password?.message}
          />
        </FieldSlot>
        <p className="mb-4 text-right text-sm">
          <RouteLink name="password.forgot" className={linkClass}>
            {t('auth.signin.forgot')}
          </RouteLink>
        </p>
        <FormError message={formError} className="mb-4" />
        <Button type="submit" loading={isSubmitting}>
          {t('auth.signin.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
