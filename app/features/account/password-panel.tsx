import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { updatePasswordRequest } from '#shared/contracts/account.ts';
import { applyApiErrors } from '../../ui/api-form-errors.ts';
import { Button } from '../../ui/button.tsx';
import { FieldSlot, FormError } from '../../ui/form-field.tsx';
import { NewPasswordFields } from '../../ui/new-password-fields.tsx';
import { Panel } from '../../ui/panel.tsx';
import { TextInput } from '../../ui/text-input.tsx';
import { notify } from '../../ui/toast.tsx';
import { useBusyAction } from '../../ui/use-busy-action.ts';
import { useLang } from '../auth/use-lang.ts';
import { useAccount } from './use-account.ts';

const FIELDS = ['current_password', 'password', 'password_confirmation'] as const;
const EMPTY = { current_password: '', password: '', password_confirmation: '' };

/**
 * §7 update-password: the current password, then a new one by the §5 rules. An account made
 * through Google or Apple has none yet: it is offered a link to set one (§2 password.set).
 */
export function PasswordPanel() {
  const { user } = useAccount();
  return user.has_password ? <ChangePassword /> : <SetPasswordLink />;
}

function SetPasswordLink() {
  const { t } = useTranslation();
  const lang = useLang();
  const { api } = useAccount();
  const { busy, run } = useBusyAction();
  const send = () =>
    run('run', async () => {
      await api.sendPasswordSetLink(lang);
      notify.success('settings.password.link_sent');
    });
  return (
    <Panel
      id="account-password"
      title={t('settings.password.title')}
      description={t('settings.password.no_password')}
      actions={
        <Button variant="secondary" loading={busy !== undefined} onClick={send}>
          {t('settings.password.send_link')}
        </Button>
      }
    />
  );
}

function ChangePassword() {
  const { t } = useTranslation();
  const { api } = useAccount();
  const [formError, setFormError] = useState<string>();
  const {
    register,
    handleSubmit,
    setError,
    watch,
    reset,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm({ resolver: zodResolver(updatePasswordRequest), defaultValues: EMPTY });

  const submit = handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      await api.updatePassword(values);
      reset(EMPTY);
      notify.success('toasts.password_changed', { description: 'settings.password.others_out' });
    } catch (error) {
      setFormError(applyApiErrors(error, setError, FIELDS));
    }
  });

  return (
    <Panel
      id="account-password"
      title={t('settings.password.title')}
      description={t('settings.password.subtitle')}
    >
      <form
        noValidate
        onSubmit={submit}
        className="flex max-w-md flex-col"
        data-testid="password-form"
      >
        <FieldSlot>
          <TextInput
            label={t('settings.password.current')}
            type="password"
            autoComplete="current-password"
            required
            {...register('current_password')}
            error={errors.current_password?.message}
          />
        </FieldSlot>
        <NewPasswordFields
          password={register('password')}
          confirmation={register('password_confirmation')}
          value={watch('password')}
          passwordError={errors.password?.message}
          confirmationError={errors.password_confirmation?.message}
          submitted={isSubmitted}
        />
        <FormError message={formError} className="mb-4" />
        <div>
          <Button type="submit" loading={isSubmitting}>
            {t('settings.password.save')}
          </Button>
        </div>
      </form>
    </Panel>
  );
}
