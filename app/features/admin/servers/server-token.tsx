import { useTranslation } from 'react-i18next';
import type { AdminServerDetail } from '#shared/contracts/admin/servers.ts';
import { CopyField } from './copy-field.tsx';
import { interfaceSetupLines, nodeStartCommand } from './node-setup.ts';
import { ServerStatusBadge } from './server-status.tsx';

/** The interface's set-up lines, to copy (no secret in them: shown whenever asked). */
export function InterfaceSetup({ server }: { server: AdminServerDetail }) {
  const { t } = useTranslation();
  const lines = interfaceSetupLines(server.interface_addresses);
  return (
    <CopyField
      label={t('staff_servers.token.interface_label')}
      value={lines.join('\n')}
      rows={lines.length}
      copyLabel={t('staff_servers.token.copy_lines')}
      testId="interface-setup"
    />
  );
}

/**
 * A new enrollment token, this once (it is stored hashed): the token to copy, the command that
 * starts the node with it, and the interface's set-up. The server's status beside it follows
 * the fleet's channel, so staff see the node enroll without reloading.
 */
export function ServerToken({
  server,
  token,
  created,
}: {
  server: AdminServerDetail;
  token: string;
  /** A new server (waiting for its first node), rather than a rotated token. */
  created: boolean;
}) {
  const { t } = useTranslation();
  const command = nodeStartCommand(server.node_api_url, token);
  return (
    <div className="flex flex-col gap-4">
      <div
        className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        data-testid="token-warning"
      >
        <p className="font-semibold">{t('staff_servers.token.once_title')}</p>
        <p className="mt-1">{t('staff_servers.token.once_text')}</p>
      </div>
      <CopyField
        label={t('staff_servers.token.token_label')}
        value={token}
        copyLabel={t('staff_servers.token.copy_token')}
        testId="enrollment-token"
      />
      <InterfaceSetup server={server} />
      <CopyField
        label={t('staff_servers.token.command_label')}
        value={command}
        rows={4}
        wrapAnywhere
        copyLabel={t('staff_servers.token.copy_command')}
        testId="node-command"
      />
      <div
        className="flex flex-wrap items-center gap-2 rounded-xl border border-slate-200 px-4 py-3 text-sm"
        aria-live="polite"
        data-testid="enroll-state"
      >
        <span className="text-slate-600">{t('staff_servers.fields.status')}</span>
        <ServerStatusBadge status={server.status} />
        <span className="text-slate-700">
          {!created
            ? t('staff_servers.token.restart')
            : server.status === 'new'
              ? t('staff_servers.token.waiting')
              : t('staff_servers.token.enrolled')}
        </span>
      </div>
    </div>
  );
}
