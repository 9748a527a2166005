import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverEndpoints } from '#shared/contracts/admin/servers.ts';
import { QueryProvider } from '../../../api/query-provider.tsx';
import { Button } from '../../../ui/button.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import { ListPage } from '../kit/list-page.tsx';
import { useLiveFleet } from './fleet-queries.ts';
import { serverColumns } from './server-columns.tsx';
import { ServerDialog, type ServerDialogRequest } from './server-dialog.tsx';
import { useServerFilters } from './server-filters.ts';
import { ServersTabs } from './servers-tabs.tsx';

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
  const filters = useServerFilters();
  const lang = useLang();
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
