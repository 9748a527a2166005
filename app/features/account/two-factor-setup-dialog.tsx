import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  RECOVERY_CODES_FILE,
  TOTP_DIGITS,
  type TwoFactorQrResponse,
} from '#shared/contracts/account.ts';
import { recoveryCodesFile } from '#shared/two-factor/recovery-codes-file.ts';
import { failureMessage, isApiError } from '../../api/api-error.ts';
import { saveFile } from '../../lib/save-file.ts';
import { useDebouncedCallback } from '../../lib/use-debounced-callback.ts';
import { Button } from '../../ui/button.tsx';
import { CodeInput } from '../../ui/code-input.tsx';
import { FormError } from '../../ui/form-field.tsx';
import { Modal } from '../../ui/modal.tsx';
import { useModal } from '../../ui/modal-flags.ts';
import { LoadingBlock } from '../../ui/spinner.tsx';
import { notify } from '../../ui/toast.tsx';
import { useLang } from '../auth/use-lang.ts';
import { useAccount } from './use-account.ts';

/** §9 "Two-factor submit debounce 500 ms": the code goes once the last digit settles. */
export const TWO_FACTOR_DEBOUNCE_MS = 500;

/** The secret in groups of four, easier to type into an app by hand. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * §4 two-factor setup (modal flag two-factor-enable): scan the QR or type the secret, enter
 * a code from the app, then keep the recovery codes.
 *
 * The first codes come with the confirmation and are shown once, here, as most services
 * do: the user has just proved the authenticator in this signed-in session, and a download
 * of what is already on screen reveals nothing new, so it asks for no password. Any later
 * set is the §7 get-recovery-codes download, behind the password (two-factor-panel.tsx),
 * and replaces this one. The dialog cannot be dismissed by accident while the codes show.
 */
export function TwoFactorSetupDialog() {
  const { t } = useTranslation();
  const lang = useLang();
  const modal = useModal('two-factor-enable');
  const { api, applyUser } = useAccount();
  const [qr, setQr] = useState<TwoFactorQrResponse>();
  const [loadError, setLoadError] = useState<string>();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string>();
  const [checking, setChecking] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();

  useEffect(() => {
    if (!modal.open) return;
    setQr(undefined);
    setLoadError(undefined);
    setCode('');
    setCodeError(undefined);
    setRecoveryCodes(undefined);
    const abort = new AbortController();
    api
      .twoFactorQr()
      .then(
        setQr,
        (error: unknown) => !abort.signal.aborted && setLoadError(failureMessage(error)),
      );
    return () => abort.abort();
  }, [modal.open, api]);

  const submit = useDebouncedCallback(async (value: string) => {
    if (value.length !== TOTP_DIGITS) return;
    setChecking(true);
    try {
      const answer = await api.confirmTwoFactor(value);
      setRecoveryCodes(answer.recovery_codes);
      await applyUser(answer.user);
      notify.success('toasts.2fa_enabled');
    } catch (error) {
      setCode('');
      const message = isApiError(error)
        ? (error.validation.code?.[0] ?? error.messageKey)
        : failureMessage(error);
      setCodeError(message);
    } finally {
      setChecking(false);
    }
  }, TWO_FACTOR_DEBOUNCE_MS);

  const onCode = (value: string) => {
    setCode(value);
    setCodeError(undefined);
    if (value.length === TOTP_DIGITS) submit(value);
  };

  const done = () => modal.onOpenChange(false);

  return (
    <Modal
      {...modal}
      dismissible={!checking && !recoveryCodes}
      title={t(
        recoveryCodes ? 'settings.two_factor.codes_title' : 'settings.two_factor.setup_title',
      )}
      description={t(
        recoveryCodes ? 'settings.two_factor.codes_text' : 'settings.two_factor.setup_text',
      )}
    >
      {recoveryCodes ? (
        <div className="flex flex-col gap-4">
          <ul
            className="grid grid-cols-2 gap-2 rounded-lg bg-slate-50 p-4 font-mono text-sm text-slate-900"
            data-testid="recovery-codes"
          >
            {recoveryCodes.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
          <div className="flex flex-wrap justify-end gap-3">
            <Button
              variant="secondary"
              onClick={() => {
                // The same file the server writes for a later set, in the page's language.
                const text = recoveryCodesFile(recoveryCodes, lang);
                saveFile(
                  new Blob([text], { type: 'text/plain;charset=utf-8' }),
                  RECOVERY_CODES_FILE,
                );
                notify.success('toasts.recovery_codes_downloaded');
              }}
            >
              {t('settings.two_factor.download_shown')}
            </Button>
            <Button onClick={done}>{t('settings.two_factor.saved')}</Button>
          </div>
        </div>
      ) : loadError ? (
        <FormError message={loadError} />
      ) : !qr ? (
        <LoadingBlock />
      ) : (
        <div className="flex flex-col gap-5">
          <ol className="flex list-decimal flex-col gap-1 pl-5 text-sm text-slate-700">
            <li>{t('settings.two_factor.step_app')}</li>
            <li>{t('settings.two_factor.step_scan')}</li>
            <li>{t('settings.two_factor.step_code')}</li>
          </ol>
          <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
            <img
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr.svg)}`}
              alt={t('settings.two_factor.qr_alt')}
              className="size-44 rounded-lg border border-slate-200 bg-white p-2"
              data-testid="two-factor-qr"
            />
            <div className="flex min-w-0 flex-col gap-1 text-sm">
              <span className="text-slate-600">{t('settings.two_factor.manual')}</span>
              <code className="font-mono break-all text-slate-900" data-testid="two-factor-secret">
                {grouped(qr.code)}
              </code>
            </div>
          </div>
          <CodeInput
            label={t('settings.two_factor.code_label')}
            value={code}
            onChange={onCode}
            error={codeError}
            disabled={checking}
            autoFocus
          />
          {checking && (
            <p className="text-sm text-slate-600" role="status">
              {t('settings.two_factor.checking')}
            </p>
          )}
        </div>
      )}
    </Modal>
  );
}
