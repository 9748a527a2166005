import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TOTP_DIGITS } from '#shared/contracts/account.ts';
import { AUTH_MESSAGES } from '#shared/contracts/auth.ts';
import type { AuthUser } from '#shared/contracts/auth-user.ts';
import { failureMessage, isApiError } from '../../api/api-error.ts';
import { useDebouncedCallback } from '../../lib/use-debounced-callback.ts';
import { Button } from '../../ui/button.tsx';
import { CodeInput } from '../../ui/code-input.tsx';
import { TextInput } from '../../ui/text-input.tsx';
import { authApi } from './auth-api.ts';
import { AuthCard, linkClass } from './auth-card.tsx';

/** §9 "Two-factor submit debounce 500 ms". */
const DEBOUNCE_MS = 500;

export interface TwoFactorStepProps {
  /** The challenge the first step answered with code 102. */
  challenge: string;
  onSignedIn: (user: AuthUser) => Promise<void> | void;
  /** Back to the first step (the challenge expired, or the user wants another account). */
  onRestart: (message?: string) => void;
}

/**
 * §4 "A code of 102 means a two-factor code is needed": six digits from the authenticator
 * app, sent once the last one settles, or a recovery code. A wrong code shows the server's
 * message under the boxes and focuses the last digit (§8).
 */
export function TwoFactorStep({ challenge, onSignedIn, onRestart }: TwoFactorStepProps) {
  const { t } = useTranslation();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const send = async (value: string) => {
    setBusy(true);
    setError(undefined);
    try {
      const { user } = await authApi.signInTwoFactor({ challenge, code: value });
      await onSignedIn(user);
    } catch (failure) {
      setBusy(false);
      if (isApiError(failure) && failure.info.includes(AUTH_MESSAGES.signInExpired)) {
        onRestart(AUTH_MESSAGES.signInExpired);
        return;
      }
      setCode('');
      setError(
        isApiError(failure)
          ? (failure.validation.code?.[0] ?? failure.messageKey)
          : failureMessage(failure),
      );
    }
  };
  const sendSoon = useDebouncedCallback(send, DEBOUNCE_MS);

  return (
    <AuthCard
      title={t('auth.two_factor.title')}
      lead={t(useRecovery ? 'auth.two_factor.recovery_lead' : 'auth.two_factor.lead')}
      focusTitle
    >
      {useRecovery ? (
        <form
          noValidate
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (recovery.trim() === '') setError('input_errors.field_is_required');
            else void send(recovery.trim());
          }}
        >
          <TextInput
            label={t('auth.two_factor.recovery_label')}
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            value={recovery}
            onChange={(event) => setRecovery(event.target.value)}
            error={error}
          />
          <Button type="submit" loading={busy}>
            {t('auth.two_factor.submit')}
          </Button>
        </form>
      ) : (
        <div className="flex flex-col gap-4">
          <CodeInput
            label={t('auth.two_factor.code_label')}
            value={code}
            onChange={(value) => {
              setCode(value);
              setError(undefined);
              if (value.length === TOTP_DIGITS) sendSoon(value);
            }}
            error={error}
            disabled={busy}
            autoFocus
          />
          <Button
            loading={busy}
            onClick={() => {
              if (code.length === TOTP_DIGITS) void send(code);
              else setError('input_errors.field_is_required');
            }}
          >
            {t('auth.two_factor.submit')}
          </Button>
        </div>
      )}
      <div className="mt-6 flex flex-col gap-2 text-sm">
        <button
          type="button"
          className={`${linkClass} self-start`}
          onClick={() => {
            setUseRecovery((value) => !value);
            setError(undefined);
          }}
        >
          {t(useRecovery ? 'auth.two_factor.use_app' : 'auth.two_factor.use_recovery')}
        </button>
        <button type="button" className={`${linkClass} self-start`} onClick={() => onRestart()}>
          {t('auth.two_factor.back')}
        </button>
      </div>
    </AuthCard>
  );
}
