import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FieldSlot } from './form-field.tsx';
import { PasswordChecklist } from './password-checklist.tsx';
import { TextInput } from './text-input.tsx';

export interface NewPasswordFieldsProps {
  password: UseFormRegisterReturn<'password'>;
  confirmation: UseFormRegisterReturn<'password_confirmation'>;
  /** The password as typed so far, for the checklist. */
  value: string;
  passwordError?: string | undefined;
  confirmationError?: string | undefined;
  /** The form was submitted at least once. */
  submitted: boolean;
  /** Label of the first field: "Password" on sign-up, "New password" elsewhere. */
  label?: 'auth.fields.password' | 'auth.fields.new_password';
}

/** A new password, its §5 checklist and its confirmation (sign-up, reset, set). */
export function NewPasswordFields({
  password,
  confirmation,
  value,
  passwordError,
  confirmationError,
  submitted,
  label = 'auth.fields.new_password',
}: NewPasswordFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <FieldSlot>
        <TextInput
          label={t(label)}
          type="password"
          autoComplete="new-password"
          required
          {...password}
          error={passwordError}
        />
      </FieldSlot>
      <PasswordChecklist value={value} showUnmet={submitted} />
      <FieldSlot>
        <TextInput
          label={t('auth.fields.password_confirmation')}
          type="password"
          autoComplete="new-password"
          required
          {...confirmation}
          error={confirmationError}
        />
      </FieldSlot>
    </>
  );
}
