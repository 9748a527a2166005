import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  type AdminSubscription,
  subscriptionEndpoints,
} from '#shared/contracts/admin/subscriptions.ts';
import { formatMoney } from '#shared/money.ts';
import { call } from '../../../api/client.ts';
import { RouteLink } from '../../../layout/route-link.tsx';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { notify } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import type { Column } from '../kit/data-table.tsx';
import { formatDateTime } from '../kit/format.ts';
import type { ListFilter } from '../kit/list-filters.tsx';
import { ListPage } from '../kit/list-page.tsx';
import {
  DAY_FILTERS,
  SERVICE_FILTER,
  SUBSCRIPTION_STATUS_FILTER,
  serviceKey,
  subscriptionStatusKey,
} from './sales-labels.ts';

const FILTERS: readonly ListFilter[] = [
  SUBSCRIPTION_STATUS_FILTER,
  SERVICE_FILTER,
  { name: 'plan', label: 'staff_sales.filters.plan', kind: 'text' },
  ...DAY_FILTERS,
];

type Action = 'cancel_at_period_end' | 'cancel_now' | 'resume' | 'refund';

/**
 * Subscriptions of every customer, or of one (`userId`), with staff's actions on each:
 * cancel at period end or now, resume, refund. Each goes through the subscription's own
 * gateway after a confirmation; the customer's pages update live.
 */
export function SubscriptionsPanel(props: { userId?: number }) {
  const { t } = useTranslation();
  const lang = useLang();
  const queryClient = useQueryClient();
  const money = (amount: number, currency: string) => formatMoney({ amount, currency }, lang);

  const run = (row: AdminSubscription, action: Action) => {
    const name = row.plan.name;
    const texts = {
      cancel_at_period_end: {
        text: t('staff_sales.confirm.cancel_at_period_end', {
          plan: name,
          email: row.customer.email,
        }),
        yes: t('staff_sales.actions.cancel_at_period_end'),
      },
      cancel_now: {
        text: t('staff_sales.confirm.cancel_now', { plan: name, email: row.customer.email }),
        yes: t('staff_sales.actions.cancel_now'),
      },
      resume: {
        text: t('staff_sales.confirm.resume', { plan: name, email: row.customer.email }),
        yes: t('staff_sales.actions.resume'),
      },
      refund: {
        text: t('staff_sales.confirm.refund', {
          plan: name,
          email: row.customer.email,
          amount: money(row.refundable, row.currency),
        }),
        yes: t('staff_sales.actions.refund'),
      },
    }[action];
    return confirm({
      title: t(`staff_sales.confirm.${action}_title`),
      text: texts.text,
      icon: action === 'resume' ? 'info' : 'danger',
      actionName: `subscription-${action}`,
      yes: { label: texts.yes, variant: action === 'resume' ? 'primary' : 'danger' },
      onConfirm: async () => {
        const id = row.subscription_id;
        if (action === 'resume') {
          await call(subscriptionEndpoints.resume, { body: { subscription_id: id } });
        } else if (action === 'refund') {
          await call(subscriptionEndpoints.refund, {
            body: { service_id: row.service_id, subscription_id: id },
          });
        } else {
          await call(subscriptionEndpoints.cancel, {
            body: {
              plan_id: row.plan.product_id,
              subscription_id: id,
              atThePeriodEnd: action === 'cancel_at_period_end',
            },
          });
        }
        notify.success(`staff_sales.done.${action}`);
        await queryClient.invalidateQueries({ queryKey: ['admin'] });
      },
    });
  };

  const columns: Column<AdminSubscription>[] = [
    ...(props.userId
      ? []
      : [
          {
            key: 'customer',
            header: 'staff_sales.subscriptions.fields.customer',
            cell: (row: AdminSubscription) => (
              <RouteLink
                name="admin.customers.view"
                params={{ id: String(row.customer.id) }}
                className="text-brand-700 hover:underline"
              >
                {row.customer.email}
              </RouteLink>
            ),
          },
        ]),
    {
      key: 'plan',
      header: 'staff_sales.subscriptions.fields.plan',
      cell: (row) => (
        <span className="flex flex-col">
          <span>{row.plan.name}</span>
          <span className="text-xs text-slate-600">{t(serviceKey(row.service_id))}</span>
        </span>
      ),
    },
    {
      key: 'status',
      header: 'staff_sales.subscriptions.fields.status',
      cell: (row) => (
        <span className="flex flex-col" data-status={row.status}>
          <span>{t(subscriptionStatusKey(row.status))}</span>
          {row.cancel_at_period_end && row.current_period_end && (
            <span className="text-xs text-amber-700">
              {t('staff_sales.subscriptions.ends_on', {
                date: formatDateTime(row.current_period_end, lang),
              })}
            </span>
          )}
        </span>
      ),
    },
    {
      key: 'amount',
      header: 'staff_sales.subscriptions.fields.amount',
      sort: 'amount',
      cell: (row) => money(row.amount, row.currency),
    },
    {
      key: 'period_end',
      header: 'staff_sales.subscriptions.fields.period_end',
      sort: 'current_period_end',
      cell: (row) => (row.current_period_end ? formatDateTime(row.current_period_end, lang) : '—'),
    },
    {
      key: 'created',
      header: 'staff_sales.subscriptions.fields.created',
      sort: 'created_at',
      cell: (row) => formatDateTime(row.created_at, lang),
    },
  ];

  return (
    <ListPage
      endpoint={subscriptionEndpoints.list}
      caption={t('staff_sales.subscriptions.title')}
      prefix="subs_"
      perPage={props.userId ? 10 : 20}
      {...(props.userId ? { fixed: { user_id: props.userId } } : {})}
      {...(props.userId ? {} : { searchLabel: t('staff_sales.subscriptions.search') })}
      filters={FILTERS}
      rowKey={(row) => row.subscription_id}
      columns={columns}
      rowActions={(row) => (
        <span className="flex flex-wrap justify-end gap-1">
          {(['cancel_at_period_end', 'cancel_now', 'resume'] as const).map(
            (action) =>
              row.actions[action] && (
                <Button key={action} variant="ghost" onClick={() => run(row, action)}>
                  {t(`staff_sales.actions.${action}`)}
                </Button>
              ),
          )}
          {/* A crypto refund needs the customer's wallet: the invoice's refund form asks. */}
          {row.actions.refund && row.service_id !== 6 && (
            <Button variant="ghost" onClick={() => run(row, 'refund')}>
              {t('staff_sales.actions.refund')}
            </Button>
          )}
        </span>
      )}
      empty={{ title: t('staff_sales.subscriptions.empty') }}
    />
  );
}
