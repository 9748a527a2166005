import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type AdminOAuthClient,
  OAUTH_CLIENT_STATUSES,
  oauthClientEndpoints,
} from '#shared/contracts/admin/oauth-clients.ts';
import { OAUTH_CLIENT_TYPES } from '#shared/oauth/client-rules.ts';
import { QueryProvider } from '../../../api/query-provider.tsx';
import { titleKey } from '../../../routes/route-titles.ts';
import { Button } from '../../../ui/button.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import type { Column } from '../kit/data-table.tsx';
import { formatDateTime } from '../kit/format.ts';
import type { ListFilter } from '../kit/list-filters.tsx';
import { ListPage } from '../kit/list-page.tsx';
import { ClientStatusBadge } from './oauth-client-detail.tsx';
import { type ClientDialogRequest, OAuthClientDialog } from './oauth-client-dialog.tsx';

const FILTERS: ListFilter[] = [
  {
    name: 'type',
    label: 'staff_oauth.fields.type',
    options: OAUTH_CLIENT_TYPES.map((value) => ({ value, label: `staff_oauth.types.${value}` })),
  },
  {
    name: 'status',
    label: 'staff_oauth.fields.status',
    options: OAUTH_CLIENT_STATUSES.map((value) => ({
      value,
      label: `staff_oauth.status.${value}`,
    })),
  },
];

const LINK =
  'rounded text-left font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500';

function columns(
  onOpen: (clientId: string) => void,
  lang: string,
  yes: string,
): Column<AdminOAuthClient>[] {
  return [
    {
      key: 'name',
      header: 'staff_oauth.fields.name',
      sort: 'name',
      cell: (client) => (
        <button type="button" className={LINK} onClick={() => onOpen(client.client_id)}>
          {client.name}
        </button>
      ),
    },
    {
      key: 'client_id',
      header: 'staff_oauth.fields.client_id',
      cell: (client) => <code className="text-xs text-slate-700">{client.client_id}</code>,
    },
    {
      key: 'type',
      header: 'staff_oauth.fields.type',
      cell: (client) => <TypeLabel type={client.type} />,
    },
    {
      key: 'first_party',
      header: 'staff_oauth.fields.first_party',
      cell: (client) => (client.first_party ? yes : '—'),
    },
    {
      key: 'status',
      header: 'staff_oauth.fields.status',
      cell: (client) => <ClientStatusBadge client={client} />,
    },
    { key: 'grants', header: 'staff_oauth.fields.grants', cell: (client) => client.grants },
    {
      key: 'created_at',
      header: 'staff_oauth.fields.created_at',
      sort: 'created_at',
      cell: (client) => formatDateTime(client.created_at, lang),
    },
  ];
}

function TypeLabel({ type }: { type: AdminOAuthClient['type'] }) {
  const { t } = useTranslation();
  return <span className="whitespace-nowrap">{t(`staff_oauth.types.${type}`)}</span>;
}

/**
 * §2 /admin/oauth/server: the apps that sign people in through us. Search, type and status
 * filters, sorting and paging in the URL; a client opens in a dialog.
 */
export function OAuthClientsPage() {
  // The page reads the query cache itself, outside the frame that provides it.
  return (
    <QueryProvider>
      <OAuthClients />
    </QueryProvider>
  );
}

function OAuthClients() {
  const { t } = useTranslation();
  const lang = useLang();
  const [dialog, setDialog] = useState<ClientDialogRequest | null>(null);
  const title = t(titleKey('admin.oauth.clients'));
  return (
    <AdminPage
      title={title}
      actions={
        <Button onClick={() => setDialog({ kind: 'create' })}>{t('staff_oauth.create')}</Button>
      }
    >
      <p className="max-w-3xl text-sm text-slate-600">{t('staff_oauth.intro')}</p>
      <ListPage
        endpoint={oauthClientEndpoints.list}
        caption={title}
        columns={columns(
          (clientId) => setDialog({ kind: 'view', clientId }),
          lang,
          t('staff_oauth.yes'),
        )}
        rowKey={(client) => client.client_id}
        filters={FILTERS}
        searchLabel={t('staff_oauth.search')}
        empty={{ title: t('staff_oauth.empty'), text: t('staff_oauth.empty_text') }}
      />
      {dialog && <OAuthClientDialog request={dialog} onClose={() => setDialog(null)} />}
    </AdminPage>
  );
}
