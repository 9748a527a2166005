import { useTranslation } from 'react-i18next';
import {
  type AdminOAuthClient,
  oauthClientEndpoints,
} from '#shared/contracts/admin/oauth-clients.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { notify } from '../../../ui/toast.tsx';
import { useShowClient } from './oauth-queries.ts';

/**
 * What staff do to a client: change it, a new secret, no secret, disable or enable. Each of
 * the last three first says what stops working, since the app's users feel it at once.
 */
export function OAuthClientActions(props: {
  client: AdminOAuthClient;
  onEdit: () => void;
  onSecret: (secret: string) => void;
}) {
  const { t } = useTranslation();
  const show = useShowClient();
  const { client } = props;
  const body = { client_id: client.client_id };
  const values = { name: client.name, grants: client.grants };
  const disabled = client.disabled_at !== null;
  const confidential = client.type === 'confidential';

  const rotate = () =>
    confirm({
      title: t('staff_oauth.rotate.title', values),
      text: t(client.has_secret ? 'staff_oauth.rotate.text' : 'staff_oauth.rotate.text_none'),
      icon: 'warning',
      actionName: 'oauth-client-rotate',
      yes: { label: t('staff_oauth.rotate.confirm') },
      onConfirm: async () => {
        const answer = await call(oauthClientEndpoints.rotateSecret, { body });
        await show(answer.client);
        if (answer.secret) props.onSecret(answer.secret);
      },
    });

  const revoke = () =>
    confirm({
      title: t('staff_oauth.revoke.title', values),
      text: t('staff_oauth.revoke.text'),
      icon: 'danger',
      actionName: 'oauth-client-revoke',
      yes: { label: t('staff_oauth.revoke.confirm'), variant: 'danger' },
      onConfirm: async () => {
        const answer = await call(oauthClientEndpoints.revokeSecret, { body });
        await show(answer.client);
        notify.success('staff_oauth.done.revoked', { values });
      },
    });

  const disable = () =>
    confirm({
      title: t('staff_oauth.disable.title', values),
      text: t('staff_oauth.disable.text', values),
      icon: 'danger',
      actionName: 'oauth-client-disable',
      yes: { label: t('staff_oauth.disable.confirm'), variant: 'danger' },
      onConfirm: async () => {
        const answer = await call(oauthClientEndpoints.disable, { body });
        await show(answer.client);
        notify.success('staff_oauth.done.disabled', { values });
      },
    });

  const enable = () =>
    confirm({
      title: t('staff_oauth.enable.title', values),
      text: t('staff_oauth.enable.text'),
      icon: 'info',
      actionName: 'oauth-client-enable',
      yes: { label: t('staff_oauth.enable.confirm') },
      onConfirm: async () => {
        const answer = await call(oauthClientEndpoints.enable, { body });
        await show(answer.client);
        notify.success('staff_oauth.done.enabled', { values });
      },
    });

  return (
    <div className="mt-6 flex flex-wrap justify-end gap-2 border-t border-slate-200 pt-4">
      <Button variant="secondary" onClick={props.onEdit}>
        {t('staff_oauth.actions.edit')}
      </Button>
      {confidential && (
        <Button variant="secondary" onClick={() => void rotate()}>
          {t(client.has_secret ? 'staff_oauth.actions.rotate' : 'staff_oauth.actions.new_secret')}
        </Button>
      )}
      {confidential && client.has_secret && (
        <Button variant="danger" onClick={() => void revoke()}>
          {t('staff_oauth.actions.revoke')}
        </Button>
      )}
      {disabled ? (
        <Button variant="secondary" onClick={() => void enable()}>
          {t('staff_oauth.actions.enable')}
        </Button>
      ) : (
        <Button variant="danger" onClick={() => void disable()}>
          {t('staff_oauth.actions.disable')}
        </Button>
      )}
    </div>
  );
}
