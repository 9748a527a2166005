import { useTranslation } from 'react-i18next';
import type { DashboardSummary } from '#shared/contracts/admin/dashboard.ts';
import { formatMoney } from '#shared/money.ts';
import { Panel } from '../../../ui/panel.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { formatDateTime } from '../kit/format.ts';
import { CustomerLink } from './customer-link.tsx';

/** Payments that failed and are still owed, with a way to the customer of each. */
export function FailedPayments({ attention }: { attention: DashboardSummary['attention'] }) {
  const { t } = useTranslation();
  const lang = useLang();
  const nothing = attention.invoices === 0 && attention.subscriptions === 0;
  return (
    <Panel
      id="dashboard-attention"
      title={t('staff_stats.dashboard.attention')}
      tone={nothing ? 'default' : 'danger'}
      description={
        nothing
          ? t('staff_stats.dashboard.attention_none')
          : t('staff_stats.dashboard.attention_counts', {
              invoices: attention.invoices,
              subscriptions: attention.subscriptions,
            })
      }
    >
      {attention.latest.length > 0 && (
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t('staff_stats.dashboard.attention_latest')}</caption>
            <thead className="border-b border-slate-200 text-xs text-slate-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-2 font-semibold">
                  {t('staff_stats.dashboard.columns.customer')}
                </th>
                <th scope="col" className="px-3 py-2 text-right font-semibold">
                  {t('staff_stats.dashboard.columns.amount')}
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  {t('staff_stats.dashboard.columns.reason')}
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  {t('staff_stats.dashboard.columns.issued')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {attention.latest.map((row) => (
                <tr key={row.invoice_id}>
                  <td className="px-3 py-2">
                    <CustomerLink customer={row.customer} />
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">
                    {formatMoney({ amount: row.amount, currency: row.currency }, lang)}
                  </td>
                  <td className="px-3 py-2 text-slate-700">{row.reason}</td>
                  <td className="px-3 py-2 whitespace-nowrap text-slate-600">
                    {formatDateTime(row.issued_at, lang)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}
