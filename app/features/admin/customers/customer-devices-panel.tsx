import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type CustomerDetail, customerEndpoints } from '#shared/contracts/admin/customers.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { Panel } from '../../../ui/panel.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { formatDateTime } from '../kit/format.ts';
import { ListPage } from '../kit/list-page.tsx';

/** The customer's signed-in devices (§3), each of which an admin can sign out. */
export function CustomerDevicesPanel({ user }: { user: CustomerDetail }) {
  const { t } = useTranslation();
  const lang = useLang();
  const queryClient = useQueryClient();
  const logOut = (id: string) =>
    confirm({
      title: t('staff.customers.confirm.device_title'),
      text: t('staff.customers.confirm.device_text', { email: user.email }),
      icon: 'warning',
      actionName: 'customer-device-logout',
      yes: { label: t('staff.customers.actions.device') },
      onConfirm: async () => {
        await call(customerEndpoints.logoutDevice, { body: { user_id: user.id, id } });
        notify.success('staff.customers.done.device');
        await queryClient.invalidateQueries({ queryKey: ['admin'] });
      },
    });
  return (
    <Panel id="customer-devices" title={t('staff.customers.devices')}>
      <ListPage
        endpoint={customerEndpoints.devices}
        caption={t('staff.customers.devices')}
        fixed={{ user_id: user.id }}
        prefix="devices_"
        perPage={10}
        rowKey={(device) => device.id}
        columns={[
          {
            key: 'agent',
            header: 'staff.customers.fields.device',
            cell: (device) => device.user_agent ?? '—',
          },
          { key: 'ip', header: 'staff.customers.fields.ip', cell: (device) => device.ip ?? '—' },
          {
            key: 'signed_in',
            header: 'staff.customers.fields.signed_in',
            cell: (device) => formatDateTime(device.last_login_at, lang),
          },
        ]}
        rowActions={(device) => (
          <Button variant="ghost" onClick={() => logOut(device.id)}>
            {t('staff.customers.actions.device')}
          </Button>
        )}
        empty={{ title: t('staff.customers.no_devices') }}
      />
    </Panel>
  );
}
