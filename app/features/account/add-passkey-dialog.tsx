import type { RegistrationResponseJSON } from '@simplewebauthn/browser';
import { type FormEvent, type RefObject, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Passkey } from '#shared/contracts/passkeys.ts';
import { failureMessage, isApiError } from '../../api/api-error.ts';
import { ceremonyErrorMessage, loadWebAuthn } from '../../lib/webauthn.ts';
import { Button } from '../../ui/button.tsx';
import { FormError } from '../../ui/form-field.tsx';
import { Modal } from '../../ui/modal.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { TextInput } from '../../ui/text-input.tsx';
import { notify } from '../../ui/toast.tsx';
import { describeUserAgent } from './device-label.ts';
import { PasskeyNameForm } from './passkey-name-form.tsx';
import type { PasskeysApi } from './passkeys-api.ts';

type Step = { kind: 'password' } | { kind: 'device' } | { kind: 'name'; passkey: Passkey };
type CreationOptions = Awaited<ReturnType<PasskeysApi['registrationOptions']>>['options'];

const REQUIRED = 'input_errors.field_is_required';

export interface AddPasskeyDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  api: PasskeysApi;
  /** The passkey is stored (the list may refresh), before it is named, and when renamed. */
  onAdded: (passkey: Passkey) => unknown;
}

/**
 * Adding a passkey, three steps in one dialog: the password (the server asks for it before
 * it hands out a registration challenge), the browser's own ceremony (this device, a phone
 * or a security key makes the key), then its name. The passkey is kept as soon as the
 * authenticator made it, under a suggested name ("Chrome on macOS"), so closing the dialog at
 * the last step never leaves a passkey on the device that the account does not know.
 */
export function AddPasskeyDialog({ open, onOpenChange, api, onAdded }: AddPasskeyDialogProps) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);

  // Closing forgets the password and starts over next time, however the dialog was closed.
  const [wasOpen, setWasOpen] = useState(open);
  if (wasOpen !== open) {
    setWasOpen(open);
    if (!open) {
      setStep({ kind: 'password' });
      setPassword('');
      setFieldError(undefined);
      setError(undefined);
      setBusy(false);
    }
  }

  const suggestedName = (credential: RegistrationResponseJSON) => {
    const { browser, os } = describeUserAgent(navigator.userAgent);
    if (credential.authenticatorAttachment === 'platform' && browser && os) {
      return t('passkeys.default_name', { browser, os });
    }
    return t('passkeys.fallback_name');
  };

  const ceremony = async (options: CreationOptions) => {
    let credential: RegistrationResponseJSON;
    try {
      const webauthn = await loadWebAuthn();
      credential = await webauthn.startRegistration({ optionsJSON: options });
    } catch (caught) {
      setError(ceremonyErrorMessage(caught));
      return;
    }
    try {
      const { passkey } = await api.register({
        name: suggestedName(credential),
        credential: {
          ...credential,
          clientExtensionResults: { ...credential.clientExtensionResults },
        },
      });
      await onAdded(passkey);
      notify.success('passkeys.toasts.added');
      setStep({ kind: 'name', passkey });
    } catch (caught) {
      setError(failureMessage(caught));
    }
  };

  /** The options for the password, then the ceremony; again with the same password on retry. */
  const begin = async (value: string) => {
    setError(undefined);
    setBusy(true);
    try {
      let options: CreationOptions;
      try {
        options = (await api.registrationOptions(value)).options;
      } catch (caught) {
        const message = isApiError(caught)
          ? (caught.validation.password?.[0] ?? caught.messageKey)
          : failureMessage(caught);
        if (step.kind === 'password' && isApiError(caught) && caught.validation.password) {
          setFieldError(message);
          passwordRef.current?.focus();
        } else {
          setError(message);
        }
        return;
      }
      setStep({ kind: 'device' });
      await ceremony(options);
    } finally {
      setBusy(false);
    }
  };

  const submitPassword = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (password.trim() === '') {
      setFieldError(REQUIRED);
      passwordRef.current?.focus();
      return;
    }
    setFieldError(undefined);
    void begin(password);
  };

  const close = () => onOpenChange(false);

  const description =
    step.kind === 'password'
      ? t('passkeys.add_dialog.password_text')
      : step.kind === 'device'
        ? t('passkeys.add_dialog.device_text')
        : t('passkeys.add_dialog.name_text');

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t('passkeys.add')}
      description={description}
      size="sm"
      dismissible={!busy}
    >
      {step.kind === 'password' && (
        <form noValidate onSubmit={submitPassword} className="flex flex-col gap-4">
          <FocusOnMount target={passwordRef} />
          <TextInput
            ref={passwordRef}
            type="password"
            name="password"
            autoComplete="current-password"
            label={t('passkeys.add_dialog.password')}
            required
            value={password}
            error={fieldError}
            onChange={(event) => {
              setPassword(event.target.value);
              if (fieldError) setFieldError(undefined);
            }}
          />
          <FormError message={error} />
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" disabled={busy} onClick={close}>
              {t('passkeys.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('passkeys.add_dialog.continue')}
            </Button>
          </div>
        </form>
      )}
      {step.kind === 'device' && (
        <div className="flex flex-col gap-4" data-testid="passkey-ceremony">
          {busy ? (
            <p className="flex items-center gap-3 text-sm text-slate-700">
              <Spinner size="sm" decorative />
              <span role="status">{t('passkeys.add_dialog.waiting')}</span>
            </p>
          ) : (
            <>
              <FormError message={error} />
              <div className="flex flex-wrap justify-end gap-3">
                <Button variant="secondary" onClick={close}>
                  {t('passkeys.cancel')}
                </Button>
                <Button onClick={() => void begin(password)}>{t('passkeys.retry')}</Button>
              </div>
            </>
          )}
        </div>
      )}
      {step.kind === 'name' && (
        <PasskeyNameForm
          initial={step.passkey.name}
          onSubmit={async (name) => {
            if (name !== step.passkey.name) {
              const { passkey } = await api.rename(step.passkey.id, name);
              await onAdded(passkey);
            }
            close();
          }}
        />
      )}
    </Modal>
  );
}

/**
 * Focuses the field when its step appears. Inside the dialog, so it runs before the dialog's
 * own first focus (an ancestor's effect), which then leaves it where it is.
 */
function FocusOnMount({ target }: { target: RefObject<HTMLElement | null> }) {
  useEffect(() => target.current?.focus(), [target]);
  return null;
}
