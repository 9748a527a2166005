import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AdminServer, serverEndpoints } from '#shared/contracts/admin/servers.ts';
import { MAX_PER_PAGE } from '#shared/contracts/list.ts';
import { failureMessage } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { QueryProvider } from '../../../api/query-provider.tsx';
import { RouteLink } from '../../../layout/route-link.tsx';
import { Button } from '../../../ui/button.tsx';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import { FilterField, SearchField } from '../kit/list-filters.tsx';
import { listQuery, useListParams } from '../kit/list-params.ts';
import { Pager } from '../kit/pager.tsx';
import { FLEET_KEYS, useLiveFleet } from './fleet-queries.ts';
import { ServerNameButton } from './server-columns.tsx';
import { ServerDialog, type ServerDialogRequest } from './server-dialog.tsx';
import { SERVER_FILTER_NAMES, useServerFilters } from './server-filters.ts';
import { DevicesOfCapacity, LastSeen, LoadMeter, ServerStatusBadge } from './server-status.tsx';
import { ServersTabs } from './servers-tabs.tsx';

interface CountryGroup {
  code: string;
  name: string;
  servers: AdminServer[];
}

/** The page's servers by country name; within a country by city and name. */
function byCountry(servers: readonly AdminServer[], lang: string): CountryGroup[] {
  const groups = new Map<string, CountryGroup>();
  for (const server of servers) {
    const group = groups.get(server.country_code) ?? {
      code: server.country_code,
      name: server.country_name,
      servers: [],
    };
    group.servers.push(server);
    groups.set(server.country_code, group);
  }
  const collator = new Intl.Collator(lang);
  for (const group of groups.values()) {
    group.servers.sort(
      (a, b) => collator.compare(a.city, b.city) || collator.compare(a.name, b.name),
    );
  }
  // The list comes ordered by country code; the page shows names, so it is ordered by them.
  return [...groups.values()].sort((a, b) => collator.compare(a.name, b.name));
}

/**
 * §2 /admin/servers/servers-list: the fleet at a glance, a compact line per server grouped by
 * country (each linking to its page), searched and filtered by country, status and tag; live
 * like the table.
 */
export function ServersListPage() {
  // The page reads the query cache itself, outside the frame that provides it.
  return (
    <QueryProvider>
      <ServersList />
    </QueryProvider>
  );
}

function ServersList() {
  const { t } = useTranslation();
  const lang = useLang();
  useLiveFleet();
  const [dialog, setDialog] = useState<ServerDialogRequest | null>(null);
  const filters = useServerFilters();
  const { params, update } = useListParams(SERVER_FILTER_NAMES);
  const query = {
    ...listQuery(params, MAX_PER_PAGE),
    lang,
    sort: 'country',
    direction: 'asc',
  } as const;
  const list = useQuery({
    queryKey: [...FLEET_KEYS.servers, query],
    queryFn: ({ signal }) => call(serverEndpoints.list, { query }, { signal }),
    placeholderData: keepPreviousData,
  });
  const filtered = params.search !== '' || Object.keys(params.filters).length > 0;
  const lastPage = list.data?.controls.last_page;
  useEffect(() => {
    if (lastPage !== undefined && params.page > lastPage) update({ page: lastPage });
  }, [lastPage, params.page, update]);
  const open = (serverId: number) => setDialog({ kind: 'view', serverId });

  return (
    <AdminPage
      title={t('staff.route_titles.admin_servers_servers-list')}
      actions={
        <Button onClick={() => setDialog({ kind: 'create' })}>{t('staff_servers.create')}</Button>
      }
    >
      <ServersTabs />
      <search className="flex flex-wrap items-end gap-3">
        <SearchField
          label={t('staff_servers.search')}
          value={params.search}
          onSearch={(search) => update({ search })}
        />
        {filters.map((filter) => (
          <FilterField
            key={filter.name}
            filter={filter}
            value={params.filters[filter.name] ?? ''}
            onChange={(value) => update({ filters: { [filter.name]: value } })}
          />
        ))}
      </search>
      {list.isPending ? (
        <LoadingBlock />
      ) : list.isError ? (
        <EmptyState
          title={t('staff.kit.load_failed')}
          text={t(failureMessage(list.error))}
          action={<Button onClick={() => list.refetch()}>{t('staff.kit.retry')}</Button>}
        />
      ) : list.data.items.length === 0 ? (
        <EmptyState
          title={filtered ? t('staff.kit.no_match') : t('staff_servers.empty')}
          text={filtered ? t('staff.kit.no_match_text') : t('staff_servers.empty_text')}
        />
      ) : (
        <>
          <div
            className={`flex flex-col gap-4 ${list.isFetching ? 'opacity-60' : ''}`}
            aria-busy={list.isFetching || undefined}
          >
            {byCountry(list.data.items, lang).map((group) => (
              <CountrySection key={group.code} group={group} onOpen={open} />
            ))}
          </div>
          <Pager controls={list.data.controls} onPage={(page) => update({ page })} />
        </>
      )}
      {dialog && <ServerDialog request={dialog} onClose={() => setDialog(null)} />}
    </AdminPage>
  );
}

function CountrySection({
  group,
  onOpen,
}: {
  group: CountryGroup;
  onOpen: (serverId: number) => void;
}) {
  const { t } = useTranslation();
  const online = group.servers.filter((server) => server.status === 'online').length;
  const headingId = `servers-${group.code}`;
  return (
    <section
      aria-labelledby={headingId}
      data-testid="country-group"
      className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-200 bg-slate-50 px-4 py-2">
        <h2 id={headingId} className="text-sm font-semibold text-slate-900">
          <RouteLink
            name="admin.servers.country"
            params={{ country_code: group.code }}
            className="hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
          >
            {group.name}
          </RouteLink>
        </h2>
        <p className="text-xs text-slate-600">
          {t('staff_servers.list.online_of', { online, servers: group.servers.length })}
        </p>
      </div>
      <ul className="divide-y divide-slate-100">
        {group.servers.map((server) => (
          <li
            key={server.server_id}
            data-testid="server-line"
            className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-4 gap-y-1 px-4 py-2 text-sm sm:grid-cols-[minmax(0,14rem)_8rem_8rem_6rem_minmax(0,1fr)]"
          >
            <div className="min-w-0">
              <ServerNameButton server={server} onOpen={onOpen} />
              <span className="block truncate text-xs text-slate-500">{server.city}</span>
            </div>
            <div className="justify-self-end sm:justify-self-start">
              <ServerStatusBadge status={server.status} />
            </div>
            <LoadMeter load={server.load} name={server.name} />
            <span className="justify-self-end text-xs text-slate-600 sm:justify-self-start">
              <DevicesOfCapacity devices={server.devices} capacity={server.capacity} />
            </span>
            <span className="col-span-2 text-xs text-slate-500 sm:col-span-1">
              <LastSeen at={server.last_seen_at} />
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
