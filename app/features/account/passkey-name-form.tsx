import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { passkeyRenameRequest } from '#shared/contracts/passkeys.ts';
import { applyApiErrors } from '../../ui/api-form-errors.ts';
import { Button } from '../../ui/button.tsx';
import { FormError } from '../../ui/form-field.tsx';
import { TextInput } from '../../ui/text-input.tsx';

const nameOnly = passkeyRenameRequest.pick({ name: true });
const FIELDS = ['name'] as const;

export interface PasskeyNameFormProps {
  initial: string;
  /** Saves the name; a failure's messages show under the field or above the buttons. */
  onSubmit: (name: string) => Promise<unknown>;
  onCancel?: () => void;
}

/** A passkey's name (required, at most 64 characters), as the server checks it. */
export function PasskeyNameForm({ initial, onSubmit, onCancel }: PasskeyNameFormProps) {
  const { t } = useTranslation();
  const [formError, setFormError] = useState<string>();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(nameOnly), defaultValues: { name: initial } });

  // The dialog opens on this field, its text selected, ready to be typed over.
  useEffect(() => setFocus('name', { shouldSelect: true }), [setFocus]);

  const submit = handleSubmit(async ({ name }) => {
    setFormError(undefined);
    try {
      await onSubmit(name);
    } catch (error) {
      setFormError(applyApiErrors(error, setError, FIELDS));
    }
  });

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" data-testid="passkey-name">
      <TextInput
        label={t('passkeys.name')}
        hint={t('passkeys.name_hint')}
        autoComplete="off"
        maxLength={64}
        required
        {...register('name')}
        error={errors.name?.message}
      />
      <FormError message={formError} />
      <div className="flex flex-wrap justify-end gap-3">
        {onCancel && (
          <Button variant="secondary" disabled={isSubmitting} onClick={onCancel}>
            {t('passkeys.cancel')}
          </Button>
        )}
        <Button type="submit" loading={isSubmitting}>
          {t('passkeys.save')}
        </Button>
      </div>
    </form>
  );
}
