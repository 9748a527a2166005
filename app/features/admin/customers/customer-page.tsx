import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { failureMessage } from '../../../api/api-error.ts';
import { QueryProvider } from '../../../api/query-provider.tsx';
import { RouteLink } from '../../../layout/route-link.tsx';
import { useAppConfig } from '../../../lib/app-config-context.ts';
import { useSession } from '../../../session/session-store.ts';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { AdminPage } from '../kit/admin-page.tsx';
import { InvoicesPanel } from '../sales/invoices-panel.tsx';
import { SubscriptionsPanel } from '../sales/subscriptions-panel.tsx';
import { CustomerActionsPanel } from './customer-actions-panel.tsx';
import { CustomerDevicesPanel } from './customer-devices-panel.tsx';
import { CustomerProfilePanel } from './customer-profile-panel.tsx';
import { CustomerStatus } from './customer-status.tsx';
import { CustomerTrail } from './customer-trail.tsx';
import { CustomerVpnPanel } from './customer-vpn-panel.tsx';
import { useCustomer } from './use-customer.ts';

/** §2 /admin/customers/{id}: profile, status, devices, what staff may do, the audit trail. */
export function CustomerPage() {
  // The page reads the query cache itself, outside the frame that provides it.
  return (
    <QueryProvider>
      <Customer />
    </QueryProvider>
  );
}

function Customer() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const { features } = useAppConfig();
  const logging = features.includes('logging');
  const billing = features.includes('billing');
  // Staff change their own account in its own settings (the server refuses it here).
  const me = useSession((session) => session.user?.id);
  const { query, show } = useCustomer(id);
  const back = (
    <RouteLink name="admin.customers" className="text-sm text-brand-700 hover:underline">
      ← {t('staff.customers.back')}
    </RouteLink>
  );

  if (query.isPending) {
    return (
      <AdminPage title={t('staff.customers.title')} before={back}>
        <LoadingBlock />
      </AdminPage>
    );
  }
  if (query.isError) {
    return (
      <AdminPage title={t('staff.customers.title')} before={back}>
        <EmptyState title={t('staff.kit.load_failed')} text={t(failureMessage(query.error))} />
      </AdminPage>
    );
  }
  const { user } = query.data;
  if (user.id === me) {
    return (
      <AdminPage title={user.name ?? user.email} before={back}>
        <EmptyState
          title={t('staff.customers.yourself')}
          text={t('staff.customers.yourself_text')}
          action={
            <RouteLink
              name="admin.account.profile"
              className="font-medium text-brand-700 underline"
            >
              {t('staff.customers.yourself_link')}
            </RouteLink>
          }
        />
      </AdminPage>
    );
  }
  return (
    <AdminPage
      title={user.name ?? user.email}
      before={back}
      actions={<CustomerStatus user={user} />}
    >
      <div className="grid gap-6 lg:grid-cols-2 [&>*]:min-w-0">
        <CustomerProfilePanel user={user} onSaved={show} />
        <CustomerActionsPanel user={user} onChanged={show} />
      </div>
      <CustomerDevicesPanel user={user} />
      <CustomerVpnPanel user={user} />
      {billing && (
        <>
          <Panel id="customer-subscriptions" title={t('staff_sales.customer.subscriptions')}>
            <SubscriptionsPanel userId={user.id} />
          </Panel>
          <Panel id="customer-invoices" title={t('staff_sales.customer.invoices')}>
            <InvoicesPanel userId={user.id} />
          </Panel>
        </>
      )}
      {logging && <CustomerTrail userId={user.id} />}
    </AdminPage>
  );
}
