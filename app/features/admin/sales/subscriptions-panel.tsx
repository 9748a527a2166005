import { useTranslation } from 'react-i18next';
import { subscriptionEndpoints } from '#shared/contracts/admin/subscriptions.ts';
import { formatMoney } from '#shared/money.ts';
import { useLang } from '../../auth/use-lang.ts';
import { formatDateTime } from '../kit/format.ts';
import { ListPage } from '../kit/list-page.tsx';

/** Subscriptions of every customer, or of one (`userId`), with staff's actions on each. */
export function SubscriptionsPanel(props: { userId?: number }) {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <ListPage
      endpoint={subscriptionEndpoints.list}
      caption={t('staff_sales.subscriptions.title')}
      prefix="subs_"
      {...(props.userId ? { fixed: { user_id: props.userId } } : {})}
      rowKey={(row) => row.subscription_id}
      columns={[
        {
          key: 'plan',
          header: 'staff_sales.subscriptions.fields.plan',
          cell: (row) => row.plan.name,
        },
        {
          key: 'status',
          header: 'staff_sales.subscriptions.fields.status',
          cell: (row) => row.status,
        },
        {
          key: 'amount',
          header: 'staff_sales.subscriptions.fields.amount',
          sort: 'amount',
          cell: (row) => formatMoney({ amount: row.amount, currency: row.currency }, lang),
        },
        {
          key: 'created',
          header: 'staff_sales.subscriptions.fields.created',
          sort: 'created_at',
          cell: (row) => formatDateTime(row.created_at, lang),
        },
      ]}
      empty={{ title: t('staff_sales.subscriptions.empty') }}
    />
  );
}
