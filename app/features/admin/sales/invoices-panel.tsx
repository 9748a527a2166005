import { useTranslation } from 'react-i18next';
import { invoiceEndpoints } from '#shared/contracts/admin/invoices.ts';
import { formatMoney } from '#shared/money.ts';
import { useLang } from '../../auth/use-lang.ts';
import { formatDateTime } from '../kit/format.ts';
import { ListPage } from '../kit/list-page.tsx';

/** Invoices of every customer, or of one (`userId`): download and refund each. */
export function InvoicesPanel(props: { userId?: number }) {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <ListPage
      endpoint={invoiceEndpoints.list}
      caption={t('staff_sales.invoices.title')}
      prefix="inv_"
      {...(props.userId ? { fixed: { user_id: props.userId } } : {})}
      rowKey={(row) => row.invoice_id}
      columns={[
        {
          key: 'number',
          header: 'staff_sales.invoices.fields.number',
          sort: 'number',
          cell: (row) => row.number ?? '—',
        },
        {
          key: 'total',
          header: 'staff_sales.invoices.fields.total',
          sort: 'total',
          cell: (row) => formatMoney({ amount: row.total, currency: row.currency }, lang),
        },
        {
          key: 'issued',
          header: 'staff_sales.invoices.fields.issued',
          sort: 'issued_at',
          cell: (row) => formatDateTime(row.issued_at, lang),
        },
      ]}
      empty={{ title: t('staff_sales.invoices.empty') }}
    />
  );
}
