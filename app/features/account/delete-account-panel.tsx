import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button.tsx';
import { confirm } from '../../ui/confirm.ts';
import { Panel } from '../../ui/panel.tsx';
import { notify } from '../../ui/toast.tsx';
import { useAccount } from './use-account.ts';

/**
 * §4 account deletion: after the password the account is deactivated with a delete date;
 * the user-change reaction then limits the user to the reactivation page (§4, §6).
 */
export function DeleteAccountPanel() {
  const { t } = useTranslation();
  const { api, applyUser } = useAccount();

  const remove = () =>
    confirm({
      title: t('settings.delete.confirm_title'),
      text: t('settings.delete.confirm_text'),
      icon: 'danger',
      password: true,
      actionName: 'account-delete',
      modal: 'account-delete',
      yes: { label: t('settings.delete.confirm') },
      onConfirm: async (password) => {
        const { user } = await api.deactivate(password);
        notify.danger('toasts.delete_account');
        // After the dialog has closed: the reaction navigates away from this page.
        setTimeout(() => void applyUser(user), 0);
      },
    });

  return (
    <Panel
      id="account-delete"
      tone="danger"
      title={t('settings.delete.title')}
      description={t('settings.delete.subtitle')}
      actions={
        <Button variant="danger" onClick={remove}>
          {t('settings.delete.button')}
        </Button>
      }
    />
  );
}
