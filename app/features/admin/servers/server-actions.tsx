import { useTranslation } from 'react-i18next';
import { type AdminServerDetail, serverEndpoints } from '#shared/contracts/admin/servers.ts';
import { call } from '../../../api/client.ts';
import { type PluralForms, pluralKey } from '../../../i18n/plural.ts';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { notify } from '../../../ui/toast.tsx';
import { useBusyAction } from '../../../ui/use-busy-action.ts';
import { useLang } from '../../auth/use-lang.ts';
import { useRefreshFleet } from './fleet-queries.ts';

const DEVICES_MOVE: PluralForms = {
  one: 'staff_servers.delete.text.one',
  few: 'staff_servers.delete.text.few',
  many: 'staff_servers.delete.text.many',
  other: 'staff_servers.delete.text.other',
};

/** What staff do to a server: change it, maintenance on or off, a new token, removal. */
export function ServerActions(props: {
  server: AdminServerDetail;
  onEdit: () => void;
  onChanged: (server: AdminServerDetail) => void;
  onToken: (token: string) => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const refreshFleet = useRefreshFleet();
  const { busy, run } = useBusyAction<'maintenance'>();
  const { server } = props;
  const inMaintenance = server.status === 'maintenance';
  const draining = server.status === 'draining';

  const maintenance = () =>
    run('maintenance', async () => {
      const answer = await call(serverEndpoints.maintenance, {
        body: { server_id: server.server_id, maintenance: !inMaintenance },
      });
      props.onChanged(answer.server);
      notify.success(
        inMaintenance ? 'staff_servers.done.maintenance_off' : 'staff_servers.done.maintenance_on',
        { values: { name: server.name } },
      );
      await refreshFleet();
    });

  const rotate = () =>
    confirm({
      title: t('staff_servers.rotate.title', { name: server.name }),
      text: t('staff_servers.rotate.text'),
      icon: 'warning',
      actionName: 'server-rotate-token',
      yes: { label: t('staff_servers.rotate.confirm') },
      onConfirm: async () => {
        const answer = await call(serverEndpoints.rotateToken, {
          body: { server_id: server.server_id },
        });
        props.onChanged(answer.server);
        props.onToken(answer.enrollment_token);
      },
    });

  const remove = () =>
    confirm({
      title: t('staff_servers.delete.title', { name: server.name }),
      text:
        server.devices === 0
          ? t('staff_servers.delete.text_none')
          : t(pluralKey(DEVICES_MOVE, server.devices, lang), {
              devices: server.devices,
              country: server.country_name,
            }),
      icon: 'danger',
      actionName: 'server-delete',
      yes: { label: t('staff_servers.delete.confirm'), variant: 'danger' },
      onConfirm: async () => {
        const answer = await call(serverEndpoints.delete, {
          body: { server_id: server.server_id },
        });
        (answer.stranded > 0 ? notify.danger : notify.success)('staff_servers.done.deleted', {
          values: { name: server.name, moved: answer.moved, stranded: answer.stranded },
        });
        props.onDeleted();
        await refreshFleet();
      },
    });

  return (
    <div className="mt-6 flex flex-wrap justify-end gap-2 border-t border-slate-200 pt-4">
      <Button variant="secondary" onClick={props.onEdit} disabled={draining}>
        {t('staff_servers.actions.edit')}
      </Button>
      <Button
        variant="secondary"
        loading={busy === 'maintenance'}
        disabled={draining}
        onClick={() => void maintenance()}
      >
        {t(
          inMaintenance
            ? 'staff_servers.actions.maintenance_off'
            : 'staff_servers.actions.maintenance_on',
        )}
      </Button>
      <Button variant="secondary" onClick={() => void rotate()} disabled={draining}>
        {t('staff_servers.actions.rotate')}
      </Button>
      <Button variant="danger" onClick={() => void remove()} disabled={draining}>
        {t('staff_servers.actions.delete')}
      </Button>
    </div>
  );
}
