import { Fragment } from 'react';
import type { AdminServer } from '#shared/contracts/admin/servers.ts';
import { RouteLink } from '../../../layout/route-link.tsx';
import type { Column } from '../kit/data-table.tsx';
import { DevicesOfCapacity, LastSeen, LoadMeter, ServerStatusBadge } from './server-status.tsx';

const LINK =
  'rounded text-left font-medium whitespace-nowrap text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500';

/** A server's name, opening its dialog; keyboard reachable like any button. */
export function ServerNameButton({
  server,
  onOpen,
}: {
  server: AdminServer;
  onOpen: (serverId: number) => void;
}) {
  return (
    <button type="button" className={LINK} onClick={() => onOpen(server.server_id)}>
      {server.name}
    </button>
  );
}

/** `host:port`, breaking only after a dot of a long host name. */
export function Endpoint({ host, port }: { host: string; port: number }) {
  const parts = host.split('.');
  return (
    <code className="text-xs text-slate-700">
      {parts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the labels of one host name, in order
        <Fragment key={index}>
          {index > 0 && (
            <>
              .<wbr />
            </>
          )}
          {part}
        </Fragment>
      ))}
      :{port}
    </code>
  );
}

export function ServerTags({ tags }: { tags: readonly string[] }) {
  if (tags.length === 0) return <span className="text-slate-400">—</span>;
  return (
    <ul className="flex flex-wrap gap-1">
      {tags.map((tag) => (
        <li
          key={tag}
          className="rounded bg-slate-100 px-1.5 py-0.5 text-xs whitespace-nowrap text-slate-700"
        >
          {tag}
        </li>
      ))}
    </ul>
  );
}

type Options = {
  onOpen: (serverId: number) => void;
  /** Leaves the place out (a country's page says it once). */
  withPlace?: boolean;
};

/** The columns of the fleet's tables; `sort` names the list's sort values (SERVER_SORTS). */
export function serverColumns(options: Options): Column<AdminServer>[] {
  const { onOpen, withPlace = true } = options;
  const columns: (Column<AdminServer> | false)[] = [
    {
      key: 'name',
      header: 'staff_servers.fields.name',
      sort: 'name',
      cell: (server) => <ServerNameButton server={server} onOpen={onOpen} />,
    },
    withPlace && {
      key: 'country',
      header: 'staff_servers.fields.location',
      sort: 'country',
      cell: (server) => (
        <span className="whitespace-nowrap">
          <RouteLink
            name="admin.servers.country"
            params={{ country_code: server.country_code }}
            className="text-slate-900 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
          >
            {server.country_name}
          </RouteLink>
          <span className="block text-xs text-slate-500">{server.city}</span>
        </span>
      ),
    },
    {
      key: 'endpoint',
      header: 'staff_servers.fields.endpoint',
      cell: (server) => <Endpoint host={server.endpoint_host} port={server.endpoint_port} />,
    },
    {
      key: 'status',
      header: 'staff_servers.fields.status',
      sort: 'status',
      cell: (server) => <ServerStatusBadge status={server.status} />,
    },
    {
      key: 'load',
      header: 'staff_servers.fields.load',
      sort: 'load',
      cell: (server) => <LoadMeter load={server.load} name={server.name} />,
    },
    {
      key: 'devices',
      header: 'staff_servers.fields.devices',
      cell: (server) => <DevicesOfCapacity devices={server.devices} capacity={server.capacity} />,
    },
    {
      key: 'last_seen_at',
      header: 'staff_servers.fields.last_seen_at',
      sort: 'last_seen_at',
      cell: (server) => <LastSeen at={server.last_seen_at} />,
    },
    {
      key: 'tags',
      header: 'staff_servers.fields.tags',
      cell: (server) => <ServerTags tags={server.tags} />,
    },
  ];
  return columns.filter((column): column is Column<AdminServer> => column !== false);
}
