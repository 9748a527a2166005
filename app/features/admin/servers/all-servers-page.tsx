import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { serverEndpoints } from '#shared/contracts/admin/servers.ts';
import { SERVER_STATUSES, SUGGESTED_TAGS } from '#shared/vpn/fleet-rules.ts';
import { QueryProvider } from '../../../api/query-provider.tsx';
import { Button } from '../../../ui/button.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import type { ListFilter } from '../kit/list-filters.tsx';
import { ListPage } from '../kit/list-page.tsx';
import { useFleetCountries, useFleetTags, useLiveFleet } from './fleet-queries.ts';
import { serverColumns } from './server-columns.tsx';
import { ServerDialog, type ServerDialogRequest } from './server-dialog.tsx';
import { ServersTabs } from './servers-tabs.tsx';

const STATUS_FILTER: ListFilter = {
  name: 'status',
  label: 'staff_servers.fields.status',
  options: SERVER_STATUSES.map((status) => ({
    value: status,
    label: `staff_servers.statuses.${status}`,
  })),
};

/**
 * §2 /admin/servers/all-servers: every server in one table, searched (name, host, city),
 * filtered by country, status and tag, sorted and paged on the server, all in the URL; status,
 * load, devices and last contact live.
 */
export function AllServersPage() {
  // The page reads the query cache itself, outside the frame that provides it.
  return (
    <QueryProvider>
      <AllServers />
    </QueryProvider>
  );
}

function AllServers() {
  const { t } = useTranslation();
  useLiveFleet();
  const [dialog, setDialog] = useState<ServerDialogRequest | null>(null);
  const countries = useFleetCountries('with_servers');
  const tag = useSearchParams()[0].get('tag');
  const tags = useFleetTags();
  const lang = useLang();
  const filters: ListFilter[] = [
    {
      name: 'country_code',
      label: 'staff_servers.fields.country_code',
      options: (countries.data ?? []).map((country) => ({
        value: country.country_code,
        label: country.name,
      })),
    },
    STATUS_FILTER,
    {
      name: 'tag',
      label: 'staff_servers.fields.tag',
      // A tag of the URL's that is not among the common ones stays chosen.
      options: [
        ...new Set([
          ...(tags.data?.items.map((item) => item.tag) ?? SUGGESTED_TAGS),
          ...(tag ? [tag] : []),
        ]),
      ].map((value) => ({
        value,
        label: value,
      })),
    },
  ];
  return (
    <AdminPage
      title={t('staff.route_titles.admin_servers_all-servers')}
      actions={
        <Button onClick={() => setDialog({ kind: 'create' })}>{t('staff_servers.create')}</Button>
      }
    >
      <ServersTabs />
      <ListPage
        endpoint={serverEndpoints.list}
        caption={t('staff.route_titles.admin_servers_all-servers')}
        columns={serverColumns({ onOpen: (serverId) => setDialog({ kind: 'view', serverId }) })}
        rowKey={(server) => server.server_id}
        filters={filters}
        fixed={{ lang }}
        searchLabel={t('staff_servers.search')}
        empty={{ title: t('staff_servers.empty'), text: t('staff_servers.empty_text') }}
      />
      {dialog && <ServerDialog request={dialog} onClose={() => setDialog(null)} />}
    </AdminPage>
  );
}
