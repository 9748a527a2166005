import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { invoiceEndpoints } from '#shared/contracts/admin/invoices.ts';
import { formatMoney } from '#shared/money.ts';
import { call } from '../../../api/client.ts';
import { RouteLink } from '../../../layout/route-link.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { formatDateTime } from '../kit/format.ts';
import { QueryBlock } from '../statistics/query-block.tsx';
import { CustomerLink } from './customer-link.tsx';

const LATEST = 8;

/** The newest invoices of all customers (§7 invoices/latest). */
export function LatestInvoices() {
  const { t } = useTranslation();
  const lang = useLang();
  const latest = useQuery({
    queryKey: ['admin', 'invoices', 'latest', LATEST],
    queryFn: ({ signal }) =>
      call(invoiceEndpoints.latest, { query: { limit: LATEST } }, { signal }),
  });
  return (
    <Panel
      id="dashboard-invoices"
      title={t('staff_stats.dashboard.latest_invoices')}
      actions={
        <RouteLink
          name="admin.statistics.earnings.overview"
          className="text-sm font-medium text-brand-700 hover:underline"
        >
          {t('staff_stats.dashboard.see_earnings')}
        </RouteLink>
      }
    >
      <QueryBlock query={latest}>
        {(data) =>
          data.items.length === 0 ? (
            <p className="text-sm text-slate-600">{t('staff_stats.dashboard.no_invoices')}</p>
          ) : (
            <div className="relative overflow-x-auto">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">{t('staff_stats.dashboard.latest_invoices')}</caption>
                <thead className="border-b border-slate-200 text-xs text-slate-600 uppercase">
                  <tr>
                    {(['number', 'customer', 'status', 'total', 'issued'] as const).map((key) => (
                      <th
                        key={key}
                        scope="col"
                        className={`px-3 py-2 font-semibold ${key === 'total' ? 'text-right' : ''}`}
                      >
                        {t(`staff_stats.dashboard.columns.${key}`)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {data.items.map((invoice) => (
                    <tr key={invoice.invoice_id}>
                      <td className="px-3 py-2 font-medium whitespace-nowrap">
                        {invoice.number ?? '—'}
                      </td>
                      <td className="px-3 py-2">
                        <CustomerLink customer={invoice.customer} />
                      </td>
                      <td className="px-3 py-2">
                        {t(`staff_stats.invoice_statuses.${invoice.status}`)}
                        {invoice.amount_refunded > 0 && (
                          <span className="ml-1 text-xs text-slate-600">
                            ({t('staff_stats.dashboard.refunded')})
                          </span>
                        )}
                      </td>
                      <td className="px-3 py-2 text-right tabular-nums">
                        {formatMoney({ amount: invoice.total, currency: invoice.currency }, lang)}
                      </td>
                      <td className="px-3 py-2 whitespace-nowrap text-slate-600">
                        {formatDateTime(invoice.issued_at, lang)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryBlock>
    </Panel>
  );
}
