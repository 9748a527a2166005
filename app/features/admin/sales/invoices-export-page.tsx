import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EXPORT_MAX_DAYS, invoiceEndpoints } from '#shared/contracts/admin/invoices.ts';
import { Panel } from '../../../ui/panel.tsx';
import { TextInput } from '../../../ui/text-input.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import { InvoicesPanel } from './invoices-panel.tsx';

const DAY_MS = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const monthStart = () => `${today().slice(0, 8)}01`;

/** What is wrong with a range, as message keys per field; nothing when it can be exported. */
export function rangeErrors(from: string, to: string): { from?: string; to?: string } {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  if (!day.test(from)) return { from: 'input_errors.field_is_invalid' };
  if (!day.test(to)) return { to: 'input_errors.field_is_invalid' };
  if (to < from) return { to: 'staff_sales.errors.range_invalid' };
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS > EXPORT_MAX_DAYS) {
    return { to: 'staff_sales.errors.range_too_long' };
  }
  return {};
}

const LINK =
  'inline-flex h-10 items-center justify-center rounded-lg px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500';

/**
 * §2 /admin/dashboard/invoices/export-pdf: a range of days (UTC) downloaded as a PDF report
 * (totals per currency, the first rows) or as CSV (every invoice); the invoices below.
 */
export function InvoicesExportPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const [from, setFrom] = useState(monthStart);
  const [to, setTo] = useState(today);
  const errors = rangeErrors(from, to);
  const valid = !errors.from && !errors.to;
  const query = new URLSearchParams({ from, to, lang }).toString();
  const disabled = valid ? '' : 'pointer-events-none opacity-50';
  return (
    <AdminPage title={t('staff_sales.export.title')}>
      <Panel
        id="invoices-export"
        title={t('staff_sales.export.title')}
        description={t('staff_sales.export.intro')}
      >
        <div className="flex flex-wrap items-end gap-4">
          <TextInput
            type="date"
            label={t('staff_sales.export.from')}
            value={from}
            max={to || undefined}
            onChange={(event) => setFrom(event.target.value)}
            error={errors.from}
            required
          />
          <TextInput
            type="date"
            label={t('staff_sales.export.to')}
            value={to}
            min={from || undefined}
            onChange={(event) => setTo(event.target.value)}
            error={errors.to}
            required
          />
          <div className="flex flex-wrap gap-2 pb-6">
            <a
              href={valid ? `${invoiceEndpoints.exportPdf.url}?${query}` : undefined}
              aria-disabled={!valid || undefined}
              className={`${LINK} bg-brand-500 text-white hover:bg-brand-600 ${disabled}`}
              download
            >
              {t('staff_sales.export.pdf')}
            </a>
            <a
              href={valid ? `${invoiceEndpoints.exportCsv.url}?${query}` : undefined}
              aria-disabled={!valid || undefined}
              className={`${LINK} border border-[#dfe1e6] bg-white text-slate-800 hover:bg-slate-50 ${disabled}`}
              download
            >
              {t('staff_sales.export.csv')}
            </a>
          </div>
        </div>
      </Panel>
      <Panel id="invoices-list" title={t('staff_sales.invoices.title')}>
        <InvoicesPanel />
      </Panel>
    </AdminPage>
  );
}
