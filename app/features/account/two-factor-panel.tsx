import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RECOVERY_CODES_FILE } from '#shared/contracts/account.ts';
import { saveFile } from '../../lib/save-file.ts';
import { Button } from '../../ui/button.tsx';
import { confirm } from '../../ui/confirm.ts';
import { openModal } from '../../ui/modal-flags.ts';
import { Panel } from '../../ui/panel.tsx';
import { notify, notifyRequestError } from '../../ui/toast.tsx';
import { useLang } from '../auth/use-lang.ts';
import { TwoFactorSetupDialog } from './two-factor-setup-dialog.tsx';
import { useAccount } from './use-account.ts';

type TwoFactorState = 'off' | 'unconfirmed' | 'on';

const STATE_LABELS: Record<TwoFactorState, string> = {
  off: 'settings.two_factor.state_off',
  unconfirmed: 'settings.two_factor.state_unconfirmed',
  on: 'settings.two_factor.state_on',
};

/**
 * §4 Two-factor: off, enabled but unconfirmed (setup started, not finished) or confirmed.
 * Setup shows while off or unconfirmed; disable and the recovery codes once confirmed.
 */
export function TwoFactorPanel() {
  const { t } = useTranslation();
  const { user, api, applyUser } = useAccount();
  const lang = useLang();
  const [starting, setStarting] = useState(false);
  const state: TwoFactorState = user.two_factor_authentication_confirmed
    ? 'on'
    : user.two_factor_authentication
      ? 'unconfirmed'
      : 'off';

  const setUp = async () => {
    setStarting(true);
    try {
      await applyUser((await api.enableTwoFactor()).user);
      openModal('two-factor-enable');
    } catch (error) {
      notifyRequestError(error);
    } finally {
      setStarting(false);
    }
  };

  const disable = () =>
    confirm({
      title: t('settings.two_factor.disable_title'),
      text: t('settings.two_factor.disable_text'),
      icon: 'danger',
      password: true,
      actionName: 'two-factor-disable',
      modal: 'two-factor-disable',
      yes: { label: t('settings.two_factor.disable') },
      onConfirm: async (password) => {
        await applyUser((await api.disableTwoFactor(password)).user);
        notify.danger('toasts.2fa_disabled');
      },
    });

  const download = () =>
    confirm({
      title: t('settings.two_factor.recovery_title'),
      text: t('settings.two_factor.recovery_text'),
      icon: 'info',
      password: true,
      actionName: 'recovery-codes',
      modal: 'recovery-codes',
      yes: { label: t('settings.two_factor.recovery_confirm') },
      onConfirm: async (password) => {
        saveFile(await api.recoveryCodes(password, lang), RECOVERY_CODES_FILE);
        notify.success('toasts.recovery_codes_downloaded');
      },
    });

  return (
    <Panel
      id="account-two-factor"
      title={t('settings.two_factor.title')}
      description={t('settings.two_factor.subtitle')}
      actions={
        state === 'on' ? (
          <>
            <Button variant="secondary" onClick={download}>
              {t('settings.two_factor.new_codes')}
            </Button>
            <Button variant="ghost" className="text-red-700 hover:bg-red-50" onClick={disable}>
              {t('settings.two_factor.disable')}
            </Button>
          </>
        ) : (
          <Button loading={starting} onClick={setUp}>
            {t(state === 'off' ? 'settings.two_factor.set_up' : 'settings.two_factor.finish')}
          </Button>
        )
      }
    >
      <p
        className="flex items-center gap-2 text-sm"
        data-testid="two-factor-state"
        data-state={state}
      >
        <span
          aria-hidden="true"
          className={`size-2.5 rounded-full ${state === 'on' ? 'bg-emerald-500' : state === 'unconfirmed' ? 'bg-amber-500' : 'bg-slate-300'}`}
        />
        {t(STATE_LABELS[state])}
      </p>
      <TwoFactorSetupDialog />
    </Panel>
  );
}
