import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { signUpRequest } from '#shared/contracts/auth.ts';
import { RouteLink } from '../../layout/route-link.tsx';
import { applyApiErrors } from '../../ui/api-form-errors.ts';
import { Button } from '../../ui/button.tsx';
import { FieldSlot, FormError } from '../../ui/form-field.tsx';
import { NewPasswordFields } from '../../ui/new-password-fields.tsx';
import { TextInput } from '../../ui/text-input.tsx';
import { authApi } from './auth-api.ts';
import { AuthCard, linkClass } from './auth-card.tsx';
import { SocialSignIn } from './social-sign-in.tsx';
import { useFinishSignIn } from './use-finish-sign-in.ts';
import { useLang } from './use-lang.ts';
import { useSignInOutcome } from './use-sign-in-outcome.tsx';

const FIELDS = ['email', 'password', 'password_confirmation', 'name'] as const;

/**
 * §2 signup. The server signs the new account in and sends the verification e-mail in the
 * page's language; the dashboard's guard then shows an unverified user the verify screen.
 */
export function SignUpPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const finishSignIn = useFinishSignIn();
  const [formError, setFormError] = useState<string>();
  // Google or Apple may find an existing account, two-factor and all.
  const { onOutcome, secondStep } = useSignInOutcome(setFormError);
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm({
    resolver: zodResolver(signUpRequest),
    defaultValues: { email: '', password: '', password_confirmation: '', name: '' },
  });

  const submit = handleSubmit(async ({ name, ...values }) => {
    setFormError(undefined);
    try {
      const { user } = await authApi.signUp({ ...values, name: name || undefined, locale: lang });
      // Where the sign-up link asked (an order in progress), as after a sign-in (§2).
      await finishSignIn(user);
    } catch (error) {
      setFormError(applyApiErrors(error, setError, FIELDS));
    }
  });

  if (secondStep) return secondStep;

  return (
    <AuthCard
      title={t('auth.signup.title')}
      lead={t('auth.signup.lead')}
      footer={
        <>
          {t('auth.signup.have_account')}{' '}
          <RouteLink name="signin" className={linkClass}>
            {t('auth.signup.signin')}
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
        <NewPasswordFields
          label="auth.fields.password"
          password={register('password')}
          confirmation={register('password_confirmation')}
          value={watch('password')}
          passwordError={errors.password?.message}
          confirmationError={errors.password_confirmation?.message}
          submitted={isSubmitted}
        />
        <FieldSlot>
          <TextInput
            label={t('auth.fields.name')}
            autoComplete="name"
            hint={t('auth.signup.name_hint')}
            {...register('name')}
            error={errors.name?.message}
          />
        </FieldSlot>
        <FormError message={formError} className="mb-4" />
        <Button type="submit" loading={isSubmitting}>
          {t('auth.signup.submit')}
        </Button>
      </form>
      <div className="mt-6">
        <SocialSignIn onOutcome={onOutcome} onError={setFormError} />
      </div>
    </AuthCard>
  );
}
