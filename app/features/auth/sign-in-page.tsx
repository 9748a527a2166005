import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { signInRequest } from '#shared/contracts/auth.ts';
import { RouteLink } from '../../layout/route-link.tsx';
import { useAppConfig } from '../../lib/app-config-context.ts';
import { applyApiErrors } from '../../ui/api-form-errors.ts';
import { Button } from '../../ui/button.tsx';
import { FieldSlot, FormError } from '../../ui/form-field.tsx';
import { TextInput } from '../../ui/text-input.tsx';
import { authApi } from './auth-api.ts';
import { AuthCard, linkClass } from './auth-card.tsx';
import { PasskeySignInButton, usePasskeySignIn } from './passkey-sign-in.tsx';
import { SocialSignIn } from './social-sign-in.tsx';
import { useSignInOutcome } from './use-sign-in-outcome.tsx';

const FIELDS = ['email', 'password'] as const;

/**
 * §2 signin: e-mail and password, a passkey (the button, or the browser's autofill on the
 * e-mail field), or Google and Apple in a popup; then the second factor when the account has
 * one (§4 code 102, never after a passkey); then wherever the sign-in link asked to go.
 */
export function SignInPage() {
  const { t } = useTranslation();
  // §1 the `auth` flag switches sign-up (and social sign-in) off.
  const signUpOpen = useAppConfig().features.includes('auth');
  const [formError, setFormError] = useState<string>();
  // Password or social provider: either may answer code 102 (two-factor). A passkey never
  // does: it is both factors.
  const { onOutcome, secondStep } = useSignInOutcome(setFormError);
  const passkey = usePasskeySignIn(onOutcome, setFormError);
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
      await onOutcome(await authApi.signIn(values));
    } catch (error) {
      setFormError(applyApiErrors(error, setError, FIELDS));
    }
  });

  if (secondStep) return secondStep;

  return (
    <AuthCard
      title={t('auth.signin.title')}
      lead={t('auth.signin.lead')}
      footer={
        signUpOpen ? (
          <>
            {t('auth.signin.no_account')}{' '}
            <RouteLink name="signup" className={linkClass}>
              {t('auth.signin.signup')}
            </RouteLink>
          </>
        ) : undefined
      }
    >
      <form noValidate onSubmit={submit} className="flex flex-col">
        <FieldSlot>
          <TextInput
            label={t('auth.fields.email')}
            type="email"
            // The browser's autofill offers this site's passkeys here too (WebAuthn
            // conditional mediation), where it has them.
            autoComplete={passkey.supported ? 'username webauthn' : 'email'}
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
      {passkey.supported && (
        <div className="mt-3 flex flex-col">
          <PasskeySignInButton passkey={passkey} />
        </div>
      )}
      <div className="mt-6">
        <SocialSignIn onOutcome={onOutcome} onError={setFormError} />
      </div>
    </AuthCard>
  );
}
