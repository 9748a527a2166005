import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GATEWAY_NAMES } from '#shared/billing/billing-values.ts';
import { type AdminInvoice, invoiceEndpoints } from '#shared/contracts/admin/invoices.ts';
import { endpointUrl } from '#shared/contracts/endpoint.ts';
import { formatMoney } from '#shared/money.ts';
import { RouteLink } from '../../../layout/route-link.tsx';
import { Button } from '../../../ui/button.tsx';
import { useLang } from '../../auth/use-lang.ts';
import type { Column } from '../kit/data-table.tsx';
import { formatDateTime } from '../kit/format.ts';
import type { ListFilter } from '../kit/list-filters.tsx';
import { ListPage } from '../kit/list-page.tsx';
import { RefundDialog } from './refund-dialog.tsx';
import {
  DAY_FILTERS,
  INVOICE_STATUS_FILTER,
  invoiceStatusKey,
  REFUNDABLE_GATEWAYS,
  SERVICE_FILTER,
} from './sales-labels.ts';

const FILTERS: readonly ListFilter[] = [
  INVOICE_STATUS_FILTER,
  SERVICE_FILTER,
  {
    name: 'gateway',
    label: 'staff_sales.filters.gateway',
    options: GATEWAY_NAMES.map((name) => ({ value: name, label: `staff_sales.gateways.${name}` })),
  },
  {
    name: 'refunded',
    label: 'staff_sales.filters.refunded',
    options: [
      { value: 'true', label: 'staff_sales.filters.yes' },
      { value: 'false', label: 'staff_sales.filters.no' },
    ],
  },
  { name: 'currency', label: 'staff_sales.filters.currency', kind: 'text' },
  { name: 'country', label: 'staff_sales.filters.country', kind: 'text' },
  ...DAY_FILTERS,
];

const refundable = (invoice: AdminInvoice) =>
  invoice.status === 'paid' &&
  invoice.amount_paid - invoice.amount_refunded > 0 &&
  REFUNDABLE_GATEWAYS.has(invoice.gateway);

/**
 * Invoices of every customer, or of one (`userId`): filters, each one's PDF as the customer
 * got it, and a refund in full or in part.
 */
export function InvoicesPanel(props: { userId?: number }) {
  const { t } = useTranslation();
  const lang = useLang();
  const [refunding, setRefunding] = useState<AdminInvoice | null>(null);
  const money = (amount: number, currency: string) => formatMoney({ amount, currency }, lang);
  const columns: Column<AdminInvoice>[] = [
    {
      key: 'number',
      header: 'staff_sales.invoices.fields.number',
      sort: 'number',
      cell: (row) => row.number ?? '—',
    },
    ...(props.userId
      ? []
      : [
          {
            key: 'customer',
            header: 'staff_sales.invoices.fields.customer',
            cell: (row: AdminInvoice) =>
              row.customer ? (
                <RouteLink
                  name="admin.customers.view"
                  params={{ id: String(row.customer.id) }}
                  className="text-brand-700 hover:underline"
                >
                  {row.customer.email}
                </RouteLink>
              ) : (
                '—'
              ),
          },
        ]),
    {
      key: 'description',
      header: 'staff_sales.invoices.fields.description',
      cell: (row) => row.description || '—',
    },
    {
      key: 'status',
      header: 'staff_sales.invoices.fields.status',
      cell: (row) => (
        <span className="flex flex-col">
          <span>{t(invoiceStatusKey(row.status))}</span>
          {row.amount_refunded > 0 && (
            <span className="text-xs text-violet-700">
              {t(
                row.amount_refunded >= row.amount_paid
                  ? 'staff_sales.invoices.refunded_all'
                  : 'staff_sales.invoices.refunded_part',
                { amount: money(row.amount_refunded, row.currency) },
              )}
            </span>
          )}
        </span>
      ),
    },
    {
      key: 'total',
      header: 'staff_sales.invoices.fields.total',
      sort: 'total',
      cell: (row) => money(row.total, row.currency),
    },
    {
      key: 'gateway',
      header: 'staff_sales.invoices.fields.gateway',
      cell: (row) => t(`staff_sales.gateways.${row.gateway}`),
    },
    {
      key: 'issued',
      header: 'staff_sales.invoices.fields.issued',
      sort: 'issued_at',
      cell: (row) => formatDateTime(row.issued_at, lang),
    },
  ];
  return (
    <>
      <ListPage
        endpoint={invoiceEndpoints.list}
        caption={t('staff_sales.invoices.title')}
        prefix="inv_"
        perPage={props.userId ? 10 : 20}
        {...(props.userId ? { fixed: { user_id: props.userId } } : {})}
        {...(props.userId ? {} : { searchLabel: t('staff_sales.invoices.search') })}
        filters={FILTERS}
        rowKey={(row) => row.invoice_id}
        columns={columns}
        rowActions={(row) => (
          <span className="flex flex-wrap justify-end gap-1">
            {row.number && (
              <a
                href={endpointUrl(invoiceEndpoints.pdf.url, { invoice_id: row.invoice_id })}
                className="inline-flex h-9 items-center rounded-lg px-3 text-sm font-medium text-brand-600 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-500"
                download
              >
                {t('staff_sales.actions.pdf')}
                <span className="sr-only"> {row.number}</span>
              </a>
            )}
            {refundable(row) && (
              <Button variant="ghost" onClick={() => setRefunding(row)}>
                {t('staff_sales.actions.refund')}
                <span className="sr-only"> {row.number ?? `#${row.invoice_id}`}</span>
              </Button>
            )}
          </span>
        )}
        empty={{ title: t('staff_sales.invoices.empty') }}
      />
      {refunding && (
        <RefundDialog
          key={refunding.invoice_id}
          invoice={refunding}
          open
          onOpenChange={(open) => !open && setRefunding(null)}
        />
      )}
    </>
  );
}
