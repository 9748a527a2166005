import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CustomerSummary, customerEndpoints } from '#shared/contracts/admin/customers.ts';
import { RouteLink } from '../../../layout/route-link.tsx';
import { Button } from '../../../ui/button.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import type { Column } from '../kit/data-table.tsx';
import { formatDateTime } from '../kit/format.ts';
import type { ListFilter } from '../kit/list-filters.tsx';
import { ListPage } from '../kit/list-page.tsx';
import { CreateCustomerDialog } from './create-customer-dialog.tsx';
import { CustomerStatus } from './customer-status.tsx';

const YES_NO = [
  { value: 'true', label: 'staff.kit.yes' },
  { value: 'false', label: 'staff.kit.no' },
];

const FILTERS: readonly ListFilter[] = [
  {
    name: 'role',
    label: 'staff.customers.fields.role',
    options: ['USER', 'ADMIN', 'AUTHOR', 'VPN_SERVER'].map((role) => ({
      value: role,
      label: `staff.roles.${role}`,
    })),
  },
  { name: 'verified', label: 'staff.customers.filters.verified', options: YES_NO },
  { name: 'blocked', label: 'staff.customers.filters.blocked', options: YES_NO },
  { name: 'deactivated', label: 'staff.customers.filters.deactivated', options: YES_NO },
];

/** §2 /admin/customers: search, filter, sort and page through every account. */
export function CustomersPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const [creating, setCreating] = useState(false);
  const columns: readonly Column<CustomerSummary>[] = [
    {
      key: 'email',
      header: 'staff.customers.fields.email',
      sort: 'email',
      cell: (user) => (
        <RouteLink
          name="admin.customers.view"
          params={{ id: String(user.id) }}
          className="font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
        >
          {user.email}
        </RouteLink>
      ),
    },
    {
      key: 'name',
      header: 'staff.customers.fields.name',
      sort: 'name',
      cell: (user) => user.name ?? '—',
    },
    {
      key: 'username',
      header: 'staff.customers.fields.username',
      sort: 'username',
      cell: (user) => `@${user.username}`,
    },
    {
      key: 'role',
      header: 'staff.customers.fields.role',
      cell: (user) => t(`staff.roles.${user.role}`),
    },
    {
      key: 'status',
      header: 'staff.customers.fields.status',
      cell: (user) => <CustomerStatus user={user} />,
    },
    {
      key: 'created_at',
      header: 'staff.customers.fields.created_at',
      sort: 'created_at',
      cell: (user) => formatDateTime(user.created_at, lang),
    },
  ];

  return (
    <AdminPage
      title={t('staff.customers.title')}
      actions={<Button onClick={() => setCreating(true)}>{t('staff.customers.create')}</Button>}
    >
      <ListPage
        endpoint={customerEndpoints.list}
        caption={t('staff.customers.title')}
        columns={columns}
        rowKey={(user) => user.id}
        filters={FILTERS}
        searchLabel={t('staff.customers.search')}
        empty={{ title: t('staff.customers.empty') }}
      />
      <CreateCustomerDialog open={creating} onOpenChange={setCreating} />
    </AdminPage>
  );
}
