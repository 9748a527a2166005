import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CustomerDetail, customerEndpoints } from '#shared/contracts/admin/customers.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { Panel } from '../../../ui/panel.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useBusyAction } from '../../../ui/use-busy-action.ts';
import { CustomerFormDialog } from './customer-form-dialog.tsx';

interface Props {
  user: CustomerDetail;
  onChanged: (user: CustomerDetail) => Promise<void>;
}

type Confirmed = 'block' | 'delete' | 'deleteCancel' | 'disableTwoFactor';

/**
 * §6 what an admin may do to an account. Each step that §7 guards with a password asks for
 * the admin's own in the confirmation dialog (§2); the server checks it again.
 */
export function CustomerActionsPanel({ user, onChanged }: Props) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'password' | 'traffic'>();
  const { busy, run } = useBusyAction();
  const blocking = !user.blocked;

  const ask = (action: Confirmed, danger: boolean) => {
    // Texts name what happens: unblocking is the same call with the other status.
    const name = action === 'block' && !blocking ? 'unblock' : action;
    return confirm({
      title: t(`staff.customers.confirm.${name}_title`, { email: user.email }),
      text: t(`staff.customers.confirm.${name}_text`),
      icon: danger ? 'danger' : 'warning',
      password: true,
      actionName: `customer-${name}`,
      yes: { label: t(`staff.customers.actions.${name}`), variant: danger ? 'danger' : 'primary' },
      onConfirm: async (password) => {
        const body = { user_id: user.id, password };
        const answer =
          action === 'block'
            ? await call(customerEndpoints.block, { body: { ...body, status: blocking } })
            : await call(customerEndpoints[action], { body });
        notify.success(`staff.customers.done.${name}`);
        await onChanged(answer.user);
      },
    });
  };

  const resendActivation = () =>
    run('run', async () => {
      await call(customerEndpoints.resendActivationLink, { body: { user_id: user.id } });
      notify.success('staff.customers.done.activation_sent');
    });

  return (
    <Panel
      id="customer-actions"
      title={t('staff.customers.actions.title')}
      description={t('staff.customers.actions.text')}
    >
      <div className="flex flex-wrap gap-2">
        <Button variant={blocking ? 'danger' : 'primary'} onClick={() => ask('block', blocking)}>
          {t(blocking ? 'staff.customers.actions.block' : 'staff.customers.actions.unblock')}
        </Button>
        {user.delete_at ? (
          <Button variant="secondary" onClick={() => ask('deleteCancel', false)}>
            {t('staff.customers.actions.deleteCancel')}
          </Button>
        ) : (
          <Button variant="secondary" onClick={() => ask('delete', true)}>
            {t('staff.customers.actions.delete')}
          </Button>
        )}
        <Button variant="secondary" onClick={() => setDialog('password')}>
          {t('staff.customers.actions.password')}
        </Button>
        <Button variant="secondary" onClick={() => setDialog('traffic')}>
          {t('staff.customers.actions.traffic')}
        </Button>
        {user.two_factor_authentication && (
          <Button variant="secondary" onClick={() => ask('disableTwoFactor', true)}>
            {t('staff.customers.actions.disableTwoFactor')}
          </Button>
        )}
        {!user.activated && (
          <Button variant="secondary" loading={busy !== undefined} onClick={resendActivation}>
            {t('staff.customers.actions.activation')}
          </Button>
        )}
      </div>
      <CustomerFormDialog
        kind={dialog}
        user={user}
        onClose={() => setDialog(undefined)}
        onSaved={onChanged}
      />
    </Panel>
  );
}
