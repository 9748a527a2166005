import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { type FleetCountry, serverEndpoints } from '#shared/contracts/admin/servers.ts';
import { QueryProvider } from '../../../api/query-provider.tsx';
import { RouteLink } from '../../../layout/route-link.tsx';
import { Button } from '../../../ui/button.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import type { Column } from '../kit/data-table.tsx';
import { ListPage } from '../kit/list-page.tsx';
import { SortField, VisibleSwitch } from './country-controls.tsx';
import { useLiveCountryCounts, useLiveFleet } from './fleet-queries.ts';
import { ServerDialog, type ServerDialogRequest } from './server-dialog.tsx';
import { ServersTabs } from './servers-tabs.tsx';

const COLUMNS: readonly Column<FleetCountry>[] = [
  {
    key: 'name',
    header: 'staff_servers.countries.fields.name',
    cell: (country) => (
      <RouteLink
        name="admin.servers.country"
        params={{ country_code: country.country_code }}
        className="font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
      >
        {country.name}
      </RouteLink>
    ),
  },
  {
    key: 'servers',
    header: 'staff_servers.countries.fields.servers',
    className: 'tabular-nums',
    cell: (country) => country.servers,
  },
  {
    key: 'online',
    header: 'staff_servers.countries.fields.online',
    className: 'tabular-nums',
    cell: (country) => <OnlineCount country={country} />,
  },
  {
    key: 'cities',
    header: 'staff_servers.countries.fields.cities',
    className: 'tabular-nums',
    cell: (country) => country.cities,
  },
  {
    key: 'visible',
    header: 'staff_servers.countries.fields.visible',
    cell: (country) => <VisibleSwitch country={country} />,
  },
  {
    key: 'sort',
    header: 'staff_servers.countries.fields.sort',
    cell: (country) => <SortField country={country} />,
  },
];

/** Online servers against all of the country's; fewer than all is said in words too. */
function OnlineCount({ country }: { country: FleetCountry }) {
  const { t } = useTranslation();
  const short = country.online < country.servers;
  return (
    <span data-testid="country-online" className={short ? 'text-amber-800' : 'text-slate-900'}>
      {t('staff_servers.countries.online_of', {
        online: country.online,
        servers: country.servers,
      })}
    </span>
  );
}

/**
 * §2 /admin/servers/countries: the fleet's countries in the customers' order, with their
 * servers, those online and their cities; staff show or hide each and set its place. With
 * "every country", a country without servers can get its first.
 */
export function CountriesPage() {
  // The page reads the query cache itself, outside the frame that provides it.
  return (
    <QueryProvider>
      <Countries />
    </QueryProvider>
  );
}

function Countries() {
  const { t } = useTranslation();
  const lang = useLang();
  const switchId = useId();
  useLiveFleet();
  useLiveCountryCounts();
  const [dialog, setDialog] = useState<ServerDialogRequest | null>(null);
  const [searchParams, setSearchParams] = useSearchParams();
  const scope = searchParams.get('scope') === 'all' ? 'all' : 'with_servers';
  const setScope = (all: boolean) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (all) next.set('scope', 'all');
        else next.delete('scope');
        next.delete('page');
        return next;
      },
      { replace: true },
    );

  return (
    <AdminPage
      title={t('staff.route_titles.admin_servers_countries')}
      actions={
        <Button onClick={() => setDialog({ kind: 'create' })}>{t('staff_servers.create')}</Button>
      }
    >
      <ServersTabs />
      <p className="text-sm text-slate-600">{t('staff_servers.countries.intro')}</p>
      <div className="flex items-center gap-3">
        <button
          id={switchId}
          type="button"
          role="switch"
          aria-checked={scope === 'all'}
          onClick={() => setScope(scope !== 'all')}
          className={`relative inline-flex h-6 w-10 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 ${
            scope === 'all' ? 'bg-brand-500' : 'bg-slate-300'
          }`}
        >
          <span
            aria-hidden="true"
            className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${
              scope === 'all' ? 'translate-x-[1.125rem]' : 'translate-x-0.5'
            }`}
          />
        </button>
        <label htmlFor={switchId} className="text-sm text-slate-800">
          {t('staff_servers.countries.every_country')}
        </label>
      </div>
      <ListPage
        endpoint={serverEndpoints.countries}
        caption={t('staff.route_titles.admin_servers_countries')}
        columns={COLUMNS}
        rowKey={(country) => country.country_code}
        fixed={{ scope, lang }}
        perPage={50}
        rowActions={(country) => (
          <Button
            variant="ghost"
            aria-label={t('staff_servers.countries.add_in', { name: country.name })}
            onClick={() => setDialog({ kind: 'create', countryCode: country.country_code })}
          >
            {t('staff_servers.countries.add')}
          </Button>
        )}
        searchLabel={t('staff_servers.countries.search')}
        empty={{
          title: t('staff_servers.countries.empty'),
          text: t('staff_servers.countries.empty_text'),
        }}
      />
      {dialog && <ServerDialog request={dialog} onClose={() => setDialog(null)} />}
    </AdminPage>
  );
}
