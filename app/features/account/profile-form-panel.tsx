import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { profileUpdateRequest } from '#shared/contracts/account.ts';
import type { AuthUser } from '#shared/contracts/auth-user.ts';
import { applyApiErrors } from '../../ui/api-form-errors.ts';
import { Button } from '../../ui/button.tsx';
import { FieldSlot, FormError } from '../../ui/form-field.tsx';
import { Panel } from '../../ui/panel.tsx';
import { TextInput } from '../../ui/text-input.tsx';
import { notify } from '../../ui/toast.tsx';
import { useLang } from '../auth/use-lang.ts';
import { useAccount } from './use-account.ts';

const FIELDS = ['name', 'username', 'email'] as const;

type ProfileValues = z.input<typeof profileUpdateRequest>;

/** The form's values for a user: a pending new address is what the e-mail field shows. */
function valuesOf(user: AuthUser): ProfileValues {
  return { name: user.name ?? '', username: user.username, email: user.email_tmp ?? user.email };
}

/**
 * §5 Profile: name optional, username and e-mail required; Save is enabled only when a
 * value changed. A new e-mail address is confirmed through a link sent to it (§4).
 */
export function ProfileFormPanel() {
  const { t } = useTranslation();
  const lang = useLang();
  const { user, api, applyUser } = useAccount();
  const [formError, setFormError] = useState<string>();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm({ resolver: zodResolver(profileUpdateRequest), values: valuesOf(user) });

  const submit = handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      const { user: next } = await api.updateProfile({ ...values, locale: lang });
      const newEmail = next.email_tmp !== null && next.email_tmp !== user.email_tmp;
      reset(valuesOf(next));
      await applyUser(next);
      if (newEmail) {
        notify.success('toasts.change_email_p1', { description: 'toasts.change_email_p2' });
      } else {
        notify.success('toasts.profile_info_updated');
      }
    } catch (error) {
      setFormError(applyApiErrors(error, setError, FIELDS));
    }
  });

  return (
    <Panel id="account-profile" title={t('settings.profile.title')}>
      <form noValidate onSubmit={submit} className="flex flex-col" data-testid="profile-form">
        <div className="grid gap-x-4 sm:grid-cols-2">
          <FieldSlot>
            <TextInput
              label={t('settings.profile.name')}
              autoComplete="name"
              {...register('name')}
              error={errors.name?.message}
            />
          </FieldSlot>
          <FieldSlot>
            <TextInput
              label={t('settings.profile.username')}
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              {...register('username')}
              error={errors.username?.message}
            />
          </FieldSlot>
        </div>
        <FieldSlot>
          <TextInput
            label={t('settings.profile.email')}
            type="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            required
            hint={t('settings.profile.email_hint')}
            {...register('email')}
            error={errors.email?.message}
          />
        </FieldSlot>
        <FormError message={formError} className="mb-4" />
        <div className="flex justify-end">
          <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
            {t('settings.profile.save')}
          </Button>
        </div>
      </form>
    </Panel>
  );
}
