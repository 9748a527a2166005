import { Readable } from 'node:stream';
import { and, asc, count, eq, gt, or, sql } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import {
  type AdminInvoice,
  EXPORT_PDF_ROWS,
  type InvoiceExportQuery,
} from '#shared/contracts/admin/invoices.ts';
import { formatMoney, minorDigits } from '#shared/money.ts';
import type { Database } from '../../db/client.ts';
import { invoices, users } from '../../db/schema/index.ts';
import { pdfFonts } from '../../platform/pdf/pdf-fonts.ts';
import { REPORT_TEXTS } from './export-texts.ts';
import {
  type InvoiceListRow,
  invoiceConditions,
  presentRow,
  selectInvoices,
} from './invoices-query.ts';

// A range of days of invoices for the books: as CSV, every invoice, streamed a batch at a
// time (keyset paging by issue time and id, so memory stays flat however long the range);
// as a PDF report, the first EXPORT_PDF_ROWS invoices (a longer list is the CSV's job, and
// the report says so) and the totals per currency over all of them, never summed across
// currencies.

const BATCH = 500;

type Filters = Omit<InvoiceExportQuery, 'lang'>;

async function* batches(
  db: Database,
  filters: Filters,
  limit = Number.POSITIVE_INFINITY,
): AsyncGenerator<AdminInvoice[]> {
  const where = invoiceConditions(filters);
  let after: { issuedAt: Date; id: number } | null = null;
  let sent = 0;
  while (sent < limit) {
    const cursor: SQL | undefined = after
      ? or(
          gt(invoices.issuedAt, after.issuedAt),
          and(eq(invoices.issuedAt, after.issuedAt), gt(invoices.id, after.id)),
        )
      : undefined;
    const rows: InvoiceListRow[] = await selectInvoices(db)
      .where(and(where, cursor))
      .orderBy(asc(invoices.issuedAt), asc(invoices.id))
      .limit(Math.min(BATCH, limit - sent));
    if (rows.length === 0) return;
    yield rows.map(presentRow);
    sent += rows.length;
    const last = rows[rows.length - 1];
    if (!last || rows.length < BATCH) return;
    after = { issuedAt: last.invoice.issuedAt, id: last.invoice.id };
  }
}

type SQL = ReturnType<typeof sql>;

const CSV_COLUMNS = [
  'invoice_id',
  'number',
  'status',
  'gateway',
  'service_id',
  'issued_at',
  'paid_at',
  'customer_id',
  'customer_email',
  'customer_name',
  'country',
  'currency',
  'subtotal',
  'discount',
  'total',
  'amount_paid',
  'amount_refunded',
  'coupon',
  'description',
] as const;

/**
 * One CSV field: quoted when it holds a separator, quote or line break; text a spreadsheet
 * would run as a formula (= + - @ first) is prefixed with an apostrophe.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Minor units as a plain decimal in major units ("12.99"), as spreadsheets read money. */
export function decimal(amount: number, currency: string): string {
  const digits = minorDigits(currency);
  if (digits === 0) return String(amount);
  const sign = amount < 0 ? '-' : '';
  const whole = Math.abs(amount);
  const factor = 10 ** digits;
  return `${sign}${Math.floor(whole / factor)}.${String(whole % factor).padStart(digits, '0')}`;
}

/** The CSV of a range, streamed: a header line, then one line per invoice. */
export function invoicesCsv(db: Database, filters: Filters): Readable {
  async function* lines() {
    yield `${CSV_COLUMNS.join(',')}\r\n`;
    for await (const rows of batches(db, filters)) {
      yield rows
        .map((row) =>
          [
            row.invoice_id,
            row.number,
            row.status,
            row.gateway,
            row.service_id,
            row.issued_at,
            row.paid_at,
            row.customer?.id ?? null,
            row.customer?.email ?? null,
            row.customer?.name ?? null,
            row.country,
            row.currency,
            decimal(row.subtotal, row.currency),
            decimal(row.discount_total, row.currency),
            decimal(row.total, row.currency),
            decimal(row.amount_paid, row.currency),
            decimal(row.amount_refunded, row.currency),
            row.coupon_code,
            row.description,
          ]
            .map(csvField)
            .join(','),
        )
        .map((line) => `${line}\r\n`)
        .join('');
    }
  }
  return Readable.from(lines());
}

export interface CurrencyTotals {
  currency: string;
  count: number;
  total: number;
  paid: number;
  refunded: number;
}

/** Totals per currency over every invoice the filters take. */
export async function totalsPerCurrency(db: Database, filters: Filters): Promise<CurrencyTotals[]> {
  return db
    .select({
      currency: invoices.currency,
      count: count(),
      total: sql<number>`coalesce(sum(${invoices.total}), 0)::bigint`.mapWith(Number),
      paid: sql<number>`coalesce(sum(${invoices.amountPaid}), 0)::bigint`.mapWith(Number),
      refunded: sql<number>`coalesce(sum(${invoices.amountRefunded}), 0)::bigint`.mapWith(Number),
    })
    .from(invoices)
    .leftJoin(users, eq(users.id, invoices.userId))
    .where(invoiceConditions(filters))
    .groupBy(invoices.currency)
    .orderBy(invoices.currency);
}

const PAGE = { width: 841.89, height: 595.28 };
const MARGIN = 40;
const BOTTOM = PAGE.height - 50;

/** The PDF report of a range: its invoices (capped) and the totals per currency. */
export async function invoicesPdf(db: Database, query: InvoiceExportQuery): Promise<Buffer> {
  const { lang, ...filters } = query;
  const texts = REPORT_TEXTS[lang];
  const fonts = pdfFonts();
  const totals = await totalsPerCurrency(db, filters);
  const all = totals.reduce((sum, row) => sum + row.count, 0);
  const pdf = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: 20 },
    bufferPages: true,
    font: fonts.regular,
    lang,
    info: { Title: `${texts.title} ${query.from} – ${query.to}`, Creator: 'Shieldline VPN' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const money = (amount: number, currency: string) => formatMoney({ amount, currency }, lang);
  const right = PAGE.width - MARGIN;

  pdf.font(fonts.bold).fontSize(18).text(texts.title, MARGIN, MARGIN);
  pdf.font(fonts.regular).fontSize(10).text(texts.range(query.from, query.to));
  pdf.moveDown(0.5);

  // Totals first: what a reader of the report wants, and never cut by the row cap.
  pdf.font(fonts.bold).fontSize(11).text(texts.totals);
  pdf.moveDown(0.3);
  const totalCols = [MARGIN, MARGIN + 90, MARGIN + 170, MARGIN + 300, MARGIN + 430, MARGIN + 560];
  const tc = texts.totalColumns;
  const line = (cells: string[], bold = false) => {
    const y = pdf.y;
    pdf.font(bold ? fonts.bold : fonts.regular).fontSize(9);
    for (const [index, cell] of cells.entries()) {
      pdf.text(cell, totalCols[index] ?? MARGIN, y, { width: 125, lineBreak: false });
    }
    pdf.y = y + 14;
  };
  line([tc.currency, tc.count, tc.total, tc.paid, tc.refunded, tc.net], true);
  for (const row of totals) {
    line([
      row.currency,
      String(row.count),
      money(row.total, row.currency),
      money(row.paid, row.currency),
      money(row.refunded, row.currency),
      money(row.paid - row.refunded, row.currency),
    ]);
  }
  if (totals.length === 0) pdf.font(fonts.regular).fontSize(10).text(texts.none, MARGIN);
  pdf.moveDown(1);

  if (all > EXPORT_PDF_ROWS) {
    pdf.font(fonts.regular).fontSize(9).fillColor('#b45309');
    pdf.text(texts.capped(EXPORT_PDF_ROWS, all), MARGIN);
    pdf.fillColor('#111827').moveDown(0.5);
  }

  const cols = {
    number: MARGIN,
    issued: MARGIN + 120,
    customer: MARGIN + 230,
    status: MARGIN + 480,
    total: MARGIN + 560,
    refunded: MARGIN + 660,
  };
  const header = () => {
    const y = pdf.y;
    pdf.font(fonts.bold).fontSize(8.5);
    const c = texts.columns;
    pdf.text(c.number, cols.number, y, { lineBreak: false });
    pdf.text(c.issued, cols.issued, y, { lineBreak: false });
    pdf.text(c.customer, cols.customer, y, { lineBreak: false });
    pdf.text(c.status, cols.status, y, { lineBreak: false });
    pdf.text(c.total, cols.total, y, { width: 90, align: 'right', lineBreak: false });
    pdf.text(c.refunded, cols.refunded, y, {
      width: right - cols.refunded,
      align: 'right',
      lineBreak: false,
    });
    pdf
      .moveTo(MARGIN, y + 12)
      .lineTo(right, y + 12)
      .strokeColor('#e5e7eb')
      .stroke();
    pdf.y = y + 16;
  };
  if (all > 0) header();
  const dateOf = (iso: string) => iso.slice(0, 10);
  for await (const rows of batches(db, filters, EXPORT_PDF_ROWS)) {
    for (const row of rows) {
      if (pdf.y > BOTTOM) {
        pdf.addPage();
        header();
      }
      const y = pdf.y;
      pdf.font(fonts.regular).fontSize(8.5);
      pdf.text(row.number ?? `#${row.invoice_id}`, cols.number, y, {
        width: 115,
        lineBreak: false,
      });
      pdf.text(dateOf(row.issued_at), cols.issued, y, { lineBreak: false });
      pdf.text(row.customer?.email ?? '—', cols.customer, y, {
        width: 240,
        lineBreak: false,
        ellipsis: true,
      });
      pdf.text(row.status, cols.status, y, { lineBreak: false });
      pdf.text(money(row.total, row.currency), cols.total, y, {
        width: 90,
        align: 'right',
        lineBreak: false,
      });
      pdf.text(
        row.amount_refunded > 0 ? money(row.amount_refunded, row.currency) : '',
        cols.refunded,
        y,
        {
          width: right - cols.refunded,
          align: 'right',
          lineBreak: false,
        },
      );
      pdf.y = y + 13;
    }
  }

  const range = pdf.bufferedPageRange();
  for (let index = 0; index < range.count; index += 1) {
    pdf.switchToPage(range.start + index);
    pdf.font(fonts.regular).fontSize(8).fillColor('#6b7280');
    pdf.text(texts.page(index + 1, range.count), MARGIN, PAGE.height - 30, {
      width: right - MARGIN,
      align: 'right',
      lineBreak: false,
    });
  }
  pdf.end();
  return done;
}
