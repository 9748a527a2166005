import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AdminServerDetail, serverEndpoints } from '#shared/contracts/admin/servers.ts';
import { call } from '../../../api/client.ts';
import { useFleetServers } from '../../../api/use-live-channel.ts';
import { Button } from '../../../ui/button.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { notify } from '../../../ui/toast.tsx';
import { LoadFailed } from '../kit/load-failed.tsx';
import { FLEET_KEYS, useRefreshFleet, useServer } from './fleet-queries.ts';
import { ServerActions } from './server-actions.tsx';
import { ServerDetail } from './server-detail.tsx';
import { ServerForm } from './server-form.tsx';
import { ServerToken } from './server-token.tsx';

/** What a servers screen asks the dialog for: a new server (maybe in a country), or one. */
export type ServerDialogRequest =
  | { kind: 'create'; countryCode?: string }
  | { kind: 'view'; serverId: number };

type View =
  | { kind: 'create' }
  | { kind: 'detail' }
  | { kind: 'edit' }
  /** The token lives here only, for as long as the dialog shows it. */
  | { kind: 'token'; token: string; created: boolean };

/**
 * One server, in a dialog over the screen it was opened from (§2 has no page for one): its
 * detail and node facts, edit, maintenance, token rotation and removal; or a new server, whose
 * one-time token and start command follow. Its status and load follow the fleet's channel.
 */
export function ServerDialog({
  request,
  onClose,
}: {
  request: ServerDialogRequest;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const refreshFleet = useRefreshFleet();
  const [serverId, setServerId] = useState(request.kind === 'view' ? request.serverId : undefined);
  const [view, setView] = useState<View>(
    request.kind === 'create' ? { kind: 'create' } : { kind: 'detail' },
  );
  const query = useServer(serverId);
  const server = query.data;

  // The node's key, version and enrolment date come with the detail, not the channel: once
  // a node that had none reports, the detail is fetched again.
  useFleetServers((states) => {
    if (!server || server.public_key !== null) return;
    if (states.some((state) => state.server_id === server.server_id && state.status !== 'new')) {
      void client.invalidateQueries({ queryKey: FLEET_KEYS.server(server.server_id) });
    }
  });

  const show = (saved: AdminServerDetail) =>
    client.setQueryData(FLEET_KEYS.server(saved.server_id), saved);
  const cancel = (
    <Button
      variant="secondary"
      onClick={() => (serverId ? setView({ kind: 'detail' }) : onClose())}
    >
      {t('staff.kit.cancel')}
    </Button>
  );

  let title: string;
  let description: string | undefined;
  let body: ReactNode;
  if (view.kind === 'create') {
    title = t('staff_servers.create_title');
    description = t('staff_servers.create_text');
    body = (
      <ServerForm
        countryCode={request.kind === 'create' ? request.countryCode : undefined}
        submitLabel={t('staff_servers.create')}
        extra={cancel}
        onSubmit={async (fields) => {
          const answer = await call(serverEndpoints.create, { body: fields });
          show(answer.server);
          setServerId(answer.server.server_id);
          setView({ kind: 'token', token: answer.enrollment_token, created: true });
          notify.success('staff_servers.done.created', { values: { name: answer.server.name } });
          await refreshFleet();
        }}
      />
    );
  } else if (query.isPending) {
    title = t('staff_servers.server_title');
    body = <LoadingBlock />;
  } else if (query.isError || !server) {
    title = t('staff_servers.server_title');
    body = <LoadFailed error={query.error} onRetry={() => void query.refetch()} />;
  } else if (view.kind === 'edit') {
    title = t('staff_servers.edit_title', { name: server.name });
    body = (
      <ServerForm
        server={server}
        submitLabel={t('staff.kit.save')}
        extra={cancel}
        onSubmit={async (fields) => {
          const answer = await call(serverEndpoints.update, {
            body: { ...fields, server_id: server.server_id },
          });
          show(answer.server);
          notify.success('staff_servers.done.updated', { values: { name: answer.server.name } });
          setView({ kind: 'detail' });
          await refreshFleet();
        }}
      />
    );
  } else if (view.kind === 'token') {
    title = t('staff_servers.token.title', { name: server.name });
    description = view.created ? t('staff_servers.token.created_text') : undefined;
    body = (
      <>
        <ServerToken server={server} token={view.token} created={view.created} />
        <div className="mt-6 flex justify-end">
          <Button onClick={() => setView({ kind: 'detail' })}>
            {t('staff_servers.token.done')}
          </Button>
        </div>
      </>
    );
  } else {
    title = server.name;
    body = (
      <>
        <ServerDetail server={server} />
        <ServerActions
          server={server}
          onEdit={() => setView({ kind: 'edit' })}
          onChanged={show}
          onToken={(token) => setView({ kind: 'token', token, created: false })}
          onDeleted={onClose}
        />
      </>
    );
  }

  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      size="lg"
      title={title}
      description={description}
      // The token is shown once: the dialog closes only through its own button.
      dismissible={view.kind !== 'token'}
    >
      {body}
    </Modal>
  );
}
