import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { oauthClientEndpoints } from '#shared/contracts/admin/oauth-clients.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { notify } from '../../../ui/toast.tsx';
import { LoadFailed } from '../kit/load-failed.tsx';
import { OAuthClientActions } from './oauth-client-actions.tsx';
import { OAuthClientDetail } from './oauth-client-detail.tsx';
import { OAuthClientForm } from './oauth-client-form.tsx';
import { OAuthClientSecret } from './oauth-client-secret.tsx';
import { useOAuthClient, useShowClient } from './oauth-queries.ts';

export type ClientDialogRequest = { kind: 'create' } | { kind: 'view'; clientId: string };

type View =
  | { kind: 'create' }
  | { kind: 'detail' }
  | { kind: 'edit' }
  /** The secret lives here only, for as long as the dialog shows it. */
  | { kind: 'secret'; secret: string };

/**
 * One OAuth client in a dialog over the list: its detail and actions, its form, or a new
 * client, whose secret (a confidential one's) follows, once.
 */
export function OAuthClientDialog({
  request,
  onClose,
}: {
  request: ClientDialogRequest;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const show = useShowClient();
  const [clientId, setClientId] = useState(request.kind === 'view' ? request.clientId : undefined);
  const [view, setView] = useState<View>(
    request.kind === 'create' ? { kind: 'create' } : { kind: 'detail' },
  );
  const query = useOAuthClient(clientId);
  const client = query.data;
  const cancel = (
    <Button
      variant="secondary"
      onClick={() => (clientId ? setView({ kind: 'detail' }) : onClose())}
    >
      {t('staff.kit.cancel')}
    </Button>
  );

  let title: string;
  let description: string | undefined;
  let body: ReactNode;
  if (view.kind === 'create') {
    title = t('staff_oauth.create_title');
    description = t('staff_oauth.create_text');
    body = (
      <OAuthClientForm
        submitLabel={t('staff_oauth.create')}
        extra={cancel}
        onSubmit={async (fields) => {
          const answer = await call(oauthClientEndpoints.create, { body: fields });
          await show(answer.client);
          setClientId(answer.client.client_id);
          notify.success('staff_oauth.done.created', { values: { name: answer.client.name } });
          setView(answer.secret ? { kind: 'secret', secret: answer.secret } : { kind: 'detail' });
        }}
      />
    );
  } else if (query.isPending) {
    title = t('staff_oauth.client_title');
    body = <LoadingBlock />;
  } else if (query.isError || !client) {
    title = t('staff_oauth.client_title');
    body = <LoadFailed error={query.error} onRetry={() => void query.refetch()} />;
  } else if (view.kind === 'edit') {
    title = t('staff_oauth.edit_title', { name: client.name });
    body = (
      <OAuthClientForm
        client={client}
        submitLabel={t('staff.kit.save')}
        extra={cancel}
        onSubmit={async ({ type: _type, ...fields }) => {
          const answer = await call(oauthClientEndpoints.update, {
            body: { ...fields, client_id: client.client_id },
          });
          await show(answer.client);
          notify.success('staff_oauth.done.updated', { values: { name: answer.client.name } });
          setView({ kind: 'detail' });
        }}
      />
    );
  } else if (view.kind === 'secret') {
    title = t('staff_oauth.secret.title', { name: client.name });
    body = (
      <>
        <OAuthClientSecret clientId={client.client_id} secret={view.secret} />
        <div className="mt-6 flex justify-end">
          <Button onClick={() => setView({ kind: 'detail' })}>
            {t('staff_oauth.secret.done')}
          </Button>
        </div>
      </>
    );
  } else {
    title = client.name;
    body = (
      <>
        <OAuthClientDetail client={client} />
        <OAuthClientActions
          client={client}
          onEdit={() => setView({ kind: 'edit' })}
          onSecret={(secret) => setView({ kind: 'secret', secret })}
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
      // The secret is shown once: the dialog closes only through its own button.
      dismissible={view.kind !== 'secret'}
    >
      {body}
    </Modal>
  );
}
