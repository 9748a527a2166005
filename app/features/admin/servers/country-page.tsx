import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { type FleetCountryResponse, serverEndpoints } from '#shared/contracts/admin/servers.ts';
import { failureMessage } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { QueryProvider } from '../../../api/query-provider.tsx';
import { RouteLink } from '../../../layout/route-link.tsx';
import { Button } from '../../../ui/button.tsx';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import { DataTable } from '../kit/data-table.tsx';
import { SortField, VisibleSwitch } from './country-controls.tsx';
import { FLEET_KEYS, useLiveFleet } from './fleet-queries.ts';
import { serverColumns } from './server-columns.tsx';
import { ServerDialog, type ServerDialogRequest } from './server-dialog.tsx';

/**
 * §2 /admin/servers/countries/{country_code}: one country of the fleet: whether customers see
 * it and where, then each city with its servers (live), and "add a server here".
 */
export function CountryPage() {
  // The page reads the query cache itself, outside the frame that provides it.
  return (
    <QueryProvider>
      <Country />
    </QueryProvider>
  );
}

function Country() {
  const { t } = useTranslation();
  const lang = useLang();
  const code = (useParams().country_code ?? '').toUpperCase();
  useLiveFleet();
  const [dialog, setDialog] = useState<ServerDialogRequest | null>(null);
  const query = useQuery({
    queryKey: [...FLEET_KEYS.country, code, lang],
    queryFn: ({ signal }) =>
      call(serverEndpoints.country, { query: { country_code: code, lang } }, { signal }),
  });
  const back = (
    <RouteLink name="admin.servers.countries" className="text-sm text-brand-700 hover:underline">
      ← {t('staff_servers.countries.back')}
    </RouteLink>
  );
  const title = t('staff.route_titles.admin_servers_country');
  if (query.isPending) {
    return (
      <AdminPage title={title} before={back}>
        <LoadingBlock />
      </AdminPage>
    );
  }
  if (query.isError) {
    return (
      <AdminPage title={title} before={back}>
        <EmptyState
          title={t('staff.kit.load_failed')}
          text={t(failureMessage(query.error))}
          action={
            <Button variant="secondary" onClick={() => void query.refetch()}>
              {t('staff.kit.retry')}
            </Button>
          }
        />
      </AdminPage>
    );
  }
  const { country, cities } = query.data;
  const add = () => setDialog({ kind: 'create', countryCode: country.country_code });
  const open = (serverId: number) => setDialog({ kind: 'view', serverId });
  return (
    <AdminPage
      title={country.name}
      before={back}
      actions={<Button onClick={add}>{t('staff_servers.country.add_here')}</Button>}
    >
      <CountrySummary data={query.data} />
      {cities.length === 0 ? (
        <EmptyState
          title={t('staff_servers.country.empty', { name: country.name })}
          text={t('staff_servers.country.empty_text')}
        />
      ) : (
        cities.map((city) => (
          <Panel
            key={city.city_id}
            id={`city-${city.city_id}`}
            title={city.name}
            description={t('staff_servers.country.city_servers', { servers: city.items.length })}
          >
            {city.items.length === 0 ? (
              <p className="text-sm text-slate-600">{t('staff_servers.country.city_empty')}</p>
            ) : (
              <DataTable
                caption={t('staff_servers.country.city_caption', { name: city.name })}
                // A country's page is short: no sorting, every server of the city at once.
                columns={serverColumns({ onOpen: open, withPlace: false }).map((column) => ({
                  ...column,
                  sort: undefined,
                }))}
                rows={city.items}
                rowKey={(server) => server.server_id}
                sort={undefined}
                direction={undefined}
                busy={false}
                onSort={() => {}}
              />
            )}
          </Panel>
        ))
      )}
      {dialog && <ServerDialog request={dialog} onClose={() => setDialog(null)} />}
    </AdminPage>
  );
}

/** Shown to customers or not, its place, and its servers: online counted from what is live. */
function CountrySummary({ data }: { data: FleetCountryResponse }) {
  const { t } = useTranslation();
  const { country, cities } = data;
  const servers = cities.flatMap((city) => city.items);
  const online = servers.filter((server) => server.status === 'online').length;
  const facts: [string, string][] = [
    ['staff_servers.countries.fields.servers', String(servers.length)],
    [
      'staff_servers.countries.fields.online',
      t('staff_servers.countries.online_of', { online, servers: servers.length }),
    ],
    ['staff_servers.countries.fields.cities', String(country.cities)],
  ];
  return (
    <Panel
      id="country-settings"
      title={t('staff_servers.country.settings')}
      description={t('staff_servers.country.settings_text')}
    >
      <div className="flex flex-col gap-5">
        <div className="flex flex-wrap items-center gap-x-8 gap-y-4">
          <VisibleSwitch country={country} />
          <SortField country={country} showLabel />
        </div>
        <dl className="grid grid-cols-3 gap-4 text-sm">
          {facts.map(([label, value]) => (
            <div key={label}>
              <dt className="text-slate-500">{t(label)}</dt>
              <dd
                className="font-medium text-slate-900"
                data-testid={`country-${label.split('.').at(-1)}`}
              >
                {value}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </Panel>
  );
}
