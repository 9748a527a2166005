import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminServerDetail } from '#shared/contracts/admin/servers.ts';
import { useLang } from '../../auth/use-lang.ts';
import { formatDateTime } from '../kit/format.ts';
import { LastSeen, LoadMeter, ServerStatusBadge } from './server-status.tsx';
import { InterfaceSetup } from './server-token.tsx';

/** A server's facts: where, how it is reached, what its node said of itself, and when. */
export function ServerDetail({ server }: { server: AdminServerDetail }) {
  const { t } = useTranslation();
  const lang = useLang();
  const when = (iso: string | null) => (iso ? formatDateTime(iso, lang) : t('staff_servers.never'));
  const facts: [string, ReactNode][] = [
    ['location', `${server.city}, ${server.country_name}`],
    ['endpoint', <code key="endpoint">{`${server.endpoint_host}:${server.endpoint_port}`}</code>],
    ['listen_port', server.listen_port ?? t('staff_servers.same_as_endpoint')],
    ['ipv4_pool', <code key="v4">{server.ipv4_pool}</code>],
    ['ipv6_pool', <code key="v6">{server.ipv6_pool}</code>],
    ['dns', <code key="dns">{server.dns.join(', ')}</code>],
    ['tags', server.tags.length > 0 ? server.tags.join(', ') : t('staff.kit.none')],
    [
      'public_key',
      server.public_key ? (
        <code key="key" className="break-all" data-testid="server-public-key">
          {server.public_key}
        </code>
      ) : (
        <span key="key" className="text-amber-800" data-testid="server-public-key">
          {t('staff_servers.waiting_for_node')}
        </span>
      ),
    ],
    ['agent_version', server.agent_version ?? '—'],
    ['enrolled_at', when(server.enrolled_at)],
    ['token_rotated_at', when(server.token_rotated_at)],
    ['created_at', when(server.created_at)],
  ];
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center gap-x-6 gap-y-3 rounded-xl bg-slate-50 px-4 py-3 text-sm">
        <ServerStatusBadge status={server.status} />
        <LoadMeter load={server.load} name={server.name} />
        <span className="tabular-nums">
          {t('staff_servers.devices_summary', {
            devices: server.devices,
            capacity: server.capacity,
          })}
        </span>
        <span className="text-slate-600">
          {t('staff_servers.fields.last_seen_at')}: <LastSeen at={server.last_seen_at} />
        </span>
      </div>
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        {facts.map(([name, value]) => (
          <div key={name} className="min-w-0">
            <dt className="text-slate-500">{t(`staff_servers.fields.${name}`)}</dt>
            <dd className="text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <section aria-labelledby="node-setup-title" className="flex flex-col gap-2">
        <h3 id="node-setup-title" className="text-sm font-semibold text-slate-900">
          {t('staff_servers.node_setup')}
        </h3>
        <p className="text-sm text-slate-600">{t('staff_servers.node_setup_text')}</p>
        <InterfaceSetup server={server} />
      </section>
    </div>
  );
}
