import PDFDocument from 'pdfkit';
import type { Lang } from '#shared/locales.ts';
import { formatMoney } from '#shared/money.ts';
import type { InvoiceDocument, InvoiceStatus } from './invoice-document.ts';
import { INVOICE_TEXTS, type InvoiceTexts } from './invoice-texts.ts';
import { pdfFonts } from './pdf-fonts.ts';

export type { InvoiceDocument } from './invoice-document.ts';

// An invoice as an A4 PDF in the customer's language: our name and the seller's address top
// left, title, number and dates top right, the buyer, the lines (a long description wraps;
// lines that do not fit flow onto further pages, each starting with the table header again),
// then subtotal, discount, tax and total. Pages are buffered so each footer can say "Page x
// of y". The same input gives the same bytes: the PDF's dates and file id come from
// `issuedAt`, and dates are written in UTC, whatever the server's time zone.

type PdfDoc = InstanceType<typeof PDFDocument>;

const BRAND = 'Shieldline VPN';

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const RIGHT = PAGE.width - MARGIN;
const CONTENT_WIDTH = RIGHT - MARGIN;
/** Body content stays above this; the footer sits below it. */
const CONTENT_BOTTOM = PAGE.height - 72;
const FOOTER_Y = PAGE.height - 46;

const COLOR = {
  text: '#111827',
  muted: '#6b7280',
  brand: '#1d4ed8',
  rule: '#e5e7eb',
  headerFill: '#f3f4f6',
};

const STATUS_COLOR: Record<InvoiceStatus, string> = {
  paid: '#15803d',
  open: '#b45309',
  void: '#6b7280',
  refunded: '#7c3aed',
  finalizing: '#6b7280',
};

const SIZE = { body: 9.5, small: 8.5, label: 8 };

/** Table columns, right to left from the amount; the description takes what is left. */
const COLUMNS = (() => {
  const gap = 12;
  const amount = { x: RIGHT - 92, width: 92 };
  const unit = { x: amount.x - gap - 92, width: 92 };
  const quantity = { x: unit.x - gap - 44, width: 44 };
  const description = { x: MARGIN, width: quantity.x - gap - MARGIN };
  return { description, quantity, unit, amount };
})();

/** The number and dates, top right. */
const META_WIDTH = 270;
const ROW_PADDING = 7;
/** Subtotal to total, under the price columns. */
const TOTALS = (() => {
  const x = COLUMNS.quantity.x - 40;
  return { x, labelWidth: COLUMNS.amount.x - 12 - x, top: 14, ruleSpace: 10 };
})();

interface TotalsRow {
  label: string;
  value: string;
  strong?: boolean;
  ruleAbove?: boolean;
}

interface Totals {
  rows: (TotalsRow & { height: number })[];
  /** Height of the whole block, space above included. */
  space: number;
}

/** A description longer than this is cut with an ellipsis rather than break the page. */
const MAX_DESCRIPTION_HEIGHT = 300;

/** The invoice as a PDF in `lang`. Amounts are printed as given, in `doc.currency`. */
export async function renderInvoicePdf(invoice: InvoiceDocument, lang: Lang): Promise<Buffer> {
  const fonts = pdfFonts();
  const texts = INVOICE_TEXTS[lang];
  const pdf = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: 24 },
    bufferPages: true,
    autoFirstPage: false,
    font: fonts.regular,
    lang,
    displayTitle: true,
    info: {
      Title: `${texts.title} ${invoice.number}`,
      Author: invoice.seller.name,
      Creator: BRAND,
      Producer: 'PDFKit',
      CreationDate: invoice.issuedAt,
      ModDate: invoice.issuedAt,
    },
  });
  const done = collect(pdf);
  new InvoiceLayout(pdf, invoice, lang, texts).draw();
  pdf.end();
  return done;
}

function collect(pdf: PdfDoc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
}

class InvoiceLayout {
  private readonly fonts = pdfFonts();
  private readonly dates: Intl.DateTimeFormat;
  private readonly quantities: Intl.NumberFormat;
  private readonly percents: Intl.NumberFormat;
  private y = MARGIN;

  constructor(
    private readonly pdf: PdfDoc,
    private readonly invoice: InvoiceDocument,
    private readonly lang: Lang,
    private readonly t: InvoiceTexts,
  ) {
    this.dates = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' });
    this.quantities = new Intl.NumberFormat(lang, { maximumFractionDigits: 3 });
    this.percents = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 3 });
  }

  draw(): void {
    this.pdf.addPage();
    this.drawHeading();
    this.drawBuyer();
    this.drawTableHeader();
    const totals = this.measureTotals();
    // The last line goes onto the next page with the totals rather than leave them alone.
    this.invoice.lines.forEach((line, index, lines) => {
      this.drawLine(line, index === lines.length - 1 ? totals.space : 0);
    });
    this.drawTotals(totals);
    this.drawFooters();
  }

  private money(amount: number): string {
    return formatMoney({ amount, currency: this.invoice.currency }, this.lang);
  }

  private font(weight: 'regular' | 'bold', size: number, color = COLOR.text): PdfDoc {
    return this.pdf.font(this.fonts[weight]).fontSize(size).fillColor(color);
  }

  /** Writes `text` in a box at (x, y) and answers the height it took. */
  private write(
    text: string,
    x: number,
    y: number,
    width: number,
    options: PDFKit.Mixins.TextOptions = {},
  ): number {
    const box = { width, lineGap: 1.5, ...options };
    const height = this.pdf.heightOfString(text, box);
    this.pdf.text(text, x, y, box);
    return height;
  }

  private rule(y: number, from = MARGIN, to = RIGHT): void {
    this.pdf.moveTo(from, y).lineTo(to, y).lineWidth(0.75).strokeColor(COLOR.rule).stroke();
  }

  /** Our name, the seller's address, the title, status, number and dates. */
  private drawHeading(): void {
    const { invoice, t } = this;
    const top = MARGIN;

    const width = CONTENT_WIDTH - META_WIDTH - 12;
    this.font('bold', 18, COLOR.brand);
    this.write(BRAND, MARGIN, top, width);
    let left = top + 34;
    this.font('bold', SIZE.body);
    left += this.write(invoice.seller.name, MARGIN, left, width);
    this.font('regular', SIZE.small, COLOR.muted);
    for (const line of invoice.seller.lines) left += this.write(line, MARGIN, left, width);
    if (invoice.seller.taxId) {
      left += this.write(`${t.taxId}: ${invoice.seller.taxId}`, MARGIN, left, width);
    }

    const metaX = RIGHT - META_WIDTH;
    this.font('bold', 22);
    this.write(t.title, metaX, top - 3, META_WIDTH, { align: 'right' });
    let right = top + 34;
    right += this.drawStatus(right) + 10;

    const meta: [string, string][] = [
      [t.number, invoice.number],
      [t.issued, this.dates.format(invoice.issuedAt)],
    ];
    if (invoice.paidAt) meta.push([t.paid, this.dates.format(invoice.paidAt)]);
    if (invoice.periodStart && invoice.periodEnd) {
      meta.push([t.period, this.dates.formatRange(invoice.periodStart, invoice.periodEnd)]);
    }
    this.font('regular', SIZE.small);
    const labelWidth = Math.min(
      110,
      Math.max(...meta.map(([label]) => this.pdf.widthOfString(label))) + 14,
    );
    for (const [label, value] of meta) {
      this.font('regular', SIZE.small, COLOR.muted);
      const labelHeight = this.write(label, metaX, right, labelWidth);
      this.font('regular', SIZE.small);
      const valueWidth = META_WIDTH - labelWidth;
      const valueHeight = this.write(value, metaX + labelWidth, right, valueWidth, {
        align: 'right',
      });
      right += Math.max(labelHeight, valueHeight) + 3;
    }

    this.y = Math.max(left, right) + 22;
  }

  /** A coloured pill under the title, right-aligned; answers its height. */
  private drawStatus(y: number): number {
    const label = this.t.status[this.invoice.status].toLocaleUpperCase(this.lang);
    const color = STATUS_COLOR[this.invoice.status];
    this.font('bold', SIZE.label, color);
    const width = this.pdf.widthOfString(label, { characterSpacing: 0.6 }) + 16;
    const height = 16;
    this.pdf
      .roundedRect(RIGHT - width, y, width, height, 4)
      .lineWidth(1)
      .strokeColor(color)
      .stroke();
    this.pdf.text(label, RIGHT - width, y + 4.5, { width, align: 'center', characterSpacing: 0.6 });
    return height;
  }

  private drawBuyer(): void {
    const { buyer } = this.invoice;
    this.font('bold', SIZE.label, COLOR.muted);
    this.y += this.write(this.t.billedTo.toLocaleUpperCase(this.lang), MARGIN, this.y, 280, {
      characterSpacing: 0.6,
    });
    this.y += 3;
    this.font('bold', SIZE.body);
    this.y += this.write(buyer.name, MARGIN, this.y, 280);
    this.font('regular', SIZE.small);
    this.y += this.write(buyer.email, MARGIN, this.y, 280);
    this.font('regular', SIZE.small, COLOR.muted);
    for (const line of buyer.lines) this.y += this.write(line, MARGIN, this.y, 280);
    this.y += 24;
  }

  private drawTableHeader(): void {
    const height = 22;
    this.pdf.rect(MARGIN, this.y, CONTENT_WIDTH, height).fill(COLOR.headerFill);
    this.font('bold', SIZE.small);
    const y = this.y + 7;
    const { description, quantity, unit, amount } = COLUMNS;
    this.write(this.t.description, description.x + 6, y, description.width - 6);
    this.write(this.t.quantity, quantity.x, y, quantity.width, { align: 'right' });
    this.write(this.t.unitPrice, unit.x, y, unit.width, { align: 'right' });
    this.write(this.t.amount, amount.x, y, amount.width - 6, { align: 'right' });
    this.y += height;
  }

  /** A fresh page starting with a short heading, for what did not fit on the one before. */
  private continueOnNewPage(): void {
    this.pdf.addPage();
    this.font('bold', 12, COLOR.brand);
    this.write(BRAND, MARGIN, MARGIN, 200);
    this.font('regular', SIZE.small, COLOR.muted);
    this.write(`${this.t.title} ${this.invoice.number}`, RIGHT - 280, MARGIN + 2, 280, {
      align: 'right',
    });
    this.rule(MARGIN + 22);
    this.y = MARGIN + 36;
  }

  /** One row of the table; `keepWith` is the space that must fit below it on the page. */
  private drawLine(line: InvoiceDocument['lines'][number], keepWith: number): void {
    const { description, quantity, unit, amount } = COLUMNS;
    const box = { height: MAX_DESCRIPTION_HEIGHT, ellipsis: true };
    this.font('regular', SIZE.body);
    const textHeight = Math.min(
      this.pdf.heightOfString(line.description, {
        width: description.width - 6,
        lineGap: 1.5,
      }),
      MAX_DESCRIPTION_HEIGHT,
    );
    const height = textHeight + 2 * ROW_PADDING;
    if (this.y + height + keepWith > CONTENT_BOTTOM) {
      this.continueOnNewPage();
      this.drawTableHeader();
      this.font('regular', SIZE.body);
    }
    const y = this.y + ROW_PADDING;
    this.write(line.description, description.x + 6, y, description.width - 6, box);
    this.write(this.quantities.format(line.quantity), quantity.x, y, quantity.width, {
      align: 'right',
    });
    this.write(this.money(line.unitAmount), unit.x, y, unit.width, { align: 'right' });
    this.write(this.money(line.amount), amount.x, y, amount.width - 6, { align: 'right' });
    this.y += height;
    this.rule(this.y);
  }

  private totalsRows(): TotalsRow[] {
    const { invoice, t } = this;
    const rows: TotalsRow[] = [{ label: t.subtotal, value: this.money(invoice.subtotal) }];
    if (invoice.discount) {
      const { label, amount } = invoice.discount;
      rows.push({
        label: label ? `${t.discount} (${label})` : t.discount,
        value: this.money(-amount),
      });
    }
    if (invoice.tax) {
      const { label, ratePercent, amount } = invoice.tax;
      rows.push({
        label: `${label || t.tax} (${this.percents.format(ratePercent / 100)})`,
        value: this.money(amount),
      });
    }
    rows.push({ label: t.total, value: this.money(invoice.total), strong: true, ruleAbove: true });
    if (invoice.amountPaid > 0 || invoice.status === 'paid') {
      rows.push({ label: t.amountPaid, value: this.money(invoice.amountPaid) });
    }
    if (invoice.amountRefunded > 0) {
      rows.push({ label: t.refunded, value: this.money(-invoice.amountRefunded) });
    }
    const due = invoice.total - invoice.amountPaid;
    if ((invoice.status === 'open' || invoice.status === 'finalizing') && due > 0) {
      rows.push({ label: t.amountDue, value: this.money(due), strong: true });
    }
    return rows;
  }

  private measureTotals(): Totals {
    const rows = this.totalsRows().map((row) => {
      this.font(row.strong ? 'bold' : 'regular', row.strong ? 11 : SIZE.body);
      const height = this.pdf.heightOfString(row.label, { width: TOTALS.labelWidth, lineGap: 1.5 });
      return { ...row, height: height + 7 };
    });
    const space = rows.reduce(
      (sum, row) => sum + row.height + (row.ruleAbove ? TOTALS.ruleSpace : 0),
      TOTALS.top,
    );
    return { rows, space };
  }

  private drawTotals({ rows, space }: Totals): void {
    if (this.y + space > CONTENT_BOTTOM) this.continueOnNewPage();
    this.y += TOTALS.top;
    for (const row of rows) {
      if (row.ruleAbove) {
        this.rule(this.y + 1, TOTALS.x, RIGHT);
        this.y += TOTALS.ruleSpace;
      }
      this.font(row.strong ? 'bold' : 'regular', row.strong ? 11 : SIZE.body);
      this.write(row.label, TOTALS.x, this.y, TOTALS.labelWidth);
      this.write(row.value, COLUMNS.amount.x - 40, this.y, COLUMNS.amount.width + 34, {
        align: 'right',
      });
      this.y += row.height;
    }
  }

  /** Seller and page number under every page, once the page count is known. */
  private drawFooters(): void {
    const { start, count } = this.pdf.bufferedPageRange();
    for (let index = 0; index < count; index++) {
      this.pdf.switchToPage(start + index);
      this.rule(FOOTER_Y - 8);
      this.font('regular', SIZE.label, COLOR.muted);
      // A bounded box never opens a page of its own: a long name is cut with an ellipsis.
      this.write(`${this.invoice.seller.name} · ${this.invoice.number}`, MARGIN, FOOTER_Y, 300, {
        height: 12,
        ellipsis: true,
      });
      if (count > 1) {
        this.write(this.t.page(index + 1, count), RIGHT - 160, FOOTER_Y, 160, {
          align: 'right',
        });
      }
    }
  }
}
