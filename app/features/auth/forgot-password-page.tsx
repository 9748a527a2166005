import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { forgotPasswordRequest } from '#shared/contracts/auth.ts';
import { RouteLink } from '../../layout/route-link.tsx';
import { applyApiErrors } from '../../ui/api-form-errors.ts';
import { Button } from '../../ui/button.tsx';
import { FieldSlot, FormError } from '../../ui/form-field.tsx';
import { TextInput } from '../../ui/text-input.tsx';
import { notify } from '../../ui/toast.tsx';
import { authApi } from './auth-api.ts';
import { AuthCard, linkClass } from './auth-card.tsx';
import { useLang } from './use-lang.ts';

const FIELDS = ['email'] as const;

/**
 * §2 password.forgot. The server answers alike whether the address has an account, so the
 * confirmation says "if an account exists" rather than giving that away.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const [sentTo, setSentTo] = useState<string>();
  // Coming back from the confirmation to try another address: focus follows the new state.
  const [returned, setReturned] = useState(false);
  const [formError, setFormError] = useState<string>();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(forgotPasswordRequest),
    defaultValues: { email: '' },
  });

  const submit = handleSubmit(async ({ email }) => {
    setFormError(undefined);
    try {
      await authApi.forgotPassword({ email, locale: lang });
      // §8 forgot_password_verify_p1 and p2.
      notify.success('toasts.forgot_password_verify_p1', {
        description: 'toasts.forgot_password_verify_p2',
      });
      setSentTo(email);
    } catch (error) {
      setFormError(applyApiErrors(error, setError, FIELDS));
    }
  });

  const backToSignIn = (
    <RouteLink name="signin" className={linkClass}>
      {t('auth.forgot.back')}
    </RouteLink>
  );

  if (sentTo !== undefined) {
    return (
      <AuthCard key="sent" title={t('auth.forgot.sent_title')} focusTitle footer={backToSignIn}>
        <div className="flex flex-col gap-3 text-sm text-slate-700" data-testid="forgot-sent">
          <p>
            <Trans
              i18nKey="auth.forgot.sent_text"
              values={{ email: sentTo }}
              components={{ strong: <strong className="font-medium break-all text-slate-900" /> }}
            />
          </p>
          <p className="text-slate-600">{t('auth.forgot.sent_hint')}</p>
        </div>
        <Button
          variant="secondary"
          className="mt-6 w-full"
          onClick={() => {
            setSentTo(undefined);
            setReturned(true);
          }}
        >
          {t('auth.forgot.again')}
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      key="form"
      title={t('auth.forgot.title')}
      focusTitle={returned}
      lead={t('auth.forgot.lead')}
      footer={backToSignIn}
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
        <FormError message={formError} className="mb-4" />
        <Button type="submit" loading={isSubmitting}>
          {t('auth.forgot.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
