import { useTranslation } from 'react-i18next';
import { billingEndpoints, type InvoiceView } from '#shared/contracts/billing.ts';
import { endpointUrl } from '#shared/contracts/endpoint.ts';
import { formatMoney } from '#shared/money.ts';
import { useLang } from '../../auth/use-lang.ts';
import { InvoiceStatusBadge } from './badge.tsx';
import { formatShortDate } from './billing-format.ts';

/**
 * Invoices as a table: number, date and description, total (with any refund), status and
 * the PDF. On a phone the status moves under the total, so four narrow columns fit 390 px.
 */
export function InvoiceTable({
  caption,
  invoices,
  busy = false,
}: {
  caption: string;
  invoices: readonly InvoiceView[];
  busy?: boolean;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const money = (amount: number, currency: string) => formatMoney({ amount, currency }, lang);
  return (
    <div className="relative overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm" aria-busy={busy || undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-3 font-semibold sm:px-4">
              {t('invoices.columns.invoice')}
            </th>
            <th scope="col" className="px-3 py-3 text-right font-semibold sm:px-4">
              {t('invoices.columns.total')}
            </th>
            <th scope="col" className="hidden px-4 py-3 font-semibold sm:table-cell">
              {t('invoices.columns.status')}
            </th>
            <th scope="col" className="px-3 py-3 text-right font-semibold sm:px-4">
              <span className="sr-only">{t('invoices.columns.pdf')}</span>
            </th>
          </tr>
        </thead>
        <tbody className={`divide-y divide-slate-100 ${busy ? 'opacity-60' : ''}`}>
          {invoices.map((invoice) => (
            <tr key={invoice.invoice_id} data-testid="invoice" className="align-top">
              <td className="px-3 py-3 sm:px-4">
                <p className="font-medium break-all text-slate-900">
                  {invoice.number ?? t('invoices.no_number')}
                </p>
                <p className="text-xs text-slate-500">
                  <time dateTime={invoice.issued_at}>
                    {formatShortDate(invoice.issued_at, lang)}
                  </time>
                </p>
                {invoice.description !== '' && (
                  <p className="mt-1 text-xs break-words text-slate-600">{invoice.description}</p>
                )}
              </td>
              <td className="px-3 py-3 text-right whitespace-nowrap sm:px-4">
                <p className="font-medium text-slate-900">
                  {money(invoice.total, invoice.currency)}
                </p>
                {invoice.amount_refunded > 0 && (
                  <p className="text-xs text-slate-600" data-testid="invoice-refunded">
                    {t('invoices.refunded', {
                      amount: money(invoice.amount_refunded, invoice.currency),
                    })}
                  </p>
                )}
                <div className="mt-1 sm:hidden">
                  <InvoiceStatusBadge status={invoice.status} />
                </div>
              </td>
              <td className="hidden px-4 py-3 sm:table-cell">
                <InvoiceStatusBadge status={invoice.status} />
              </td>
              <td className="px-3 py-3 text-right sm:px-4">
                {invoice.number !== null && (
                  <a
                    href={endpointUrl(billingEndpoints.invoicePdf.url, {
                      invoice_id: invoice.invoice_id,
                    })}
                    download
                    aria-label={t('invoices.download_label', { number: invoice.number })}
                    className="inline-flex font-medium text-brand-600 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
                  >
                    {t('invoices.download')}
                  </a>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
