import { and, count, desc, eq, isNotNull } from 'drizzle-orm';
import { BILLING_MESSAGES, type InvoiceView } from '#shared/contracts/billing.ts';
import { listPage, type PagingQuery, pageWindow } from '#shared/contracts/list.ts';
import { isLang } from '#shared/locales.ts';
import { coupons, type InvoiceRow, invoiceLines, invoices } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';
import type { InvoiceDocument } from '../../platform/pdf/invoice-document.ts';
import { renderInvoicePdf } from '../../platform/pdf/invoice-pdf.ts';
import { SELLER } from './seller.ts';

const iso = (at: Date | null) => (at ? at.toISOString() : null);

export function presentInvoice(row: InvoiceRow, description: string): InvoiceView {
  return {
    invoice_id: row.id,
    number: row.number,
    status: row.status,
    currency: row.currency,
    subtotal: row.subtotal,
    discount: row.discountTotal,
    tax: row.taxTotal,
    total: row.total,
    amount_paid: row.amountPaid,
    amount_refunded: row.amountRefunded,
    issued_at: row.issuedAt.toISOString(),
    paid_at: iso(row.paidAt),
    period_start: iso(row.periodStart),
    period_end: iso(row.periodEnd),
    description,
    last_failure: row.lastFailure,
  };
}

/** Only numbered invoices are the customer's to see: a draft is the gateway's business. */
const visibleTo = (userId: number) => and(eq(invoices.userId, userId), isNotNull(invoices.number));

export async function listInvoices(app: App, userId: number, paging: PagingQuery) {
  const { offset, limit } = pageWindow(paging);
  const [rows, [total]] = await Promise.all([
    app.db
      .select()
      .from(invoices)
      .where(visibleTo(userId))
      .orderBy(desc(invoices.issuedAt), desc(invoices.id))
      .limit(limit)
      .offset(offset),
    app.db.select({ value: count() }).from(invoices).where(visibleTo(userId)),
  ]);
  const items = [];
  for (const row of rows) {
    const [first] = await app.db
      .select({ description: invoiceLines.description })
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, row.id))
      .orderBy(invoiceLines.id)
      .limit(1);
    items.push(presentInvoice(row, first?.description ?? ''));
  }
  return listPage(items, paging, total?.value ?? 0);
}

/** The coupon a discount came from, as printed beside it. */
async function couponLabel(app: App, couponId: number | null): Promise<string> {
  if (!couponId) return '';
  const [coupon] = await app.db
    .select({ code: coupons.code })
    .from(coupons)
    .where(eq(coupons.id, couponId));
  return coupon?.code ?? '';
}

/** One of the user's invoices as a PDF in the invoice's language (§ issue: Cyrillic too). */
export async function invoicePdf(
  app: App,
  userId: number,
  invoiceId: number,
): Promise<{ pdf: Buffer; filename: string }> {
  const [row] = await app.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), visibleTo(userId)));
  if (!row?.number) throw new AppError('not_found', { info: BILLING_MESSAGES.invoiceNotFound });
  const lines = await app.db
    .select()
    .from(invoiceLines)
    .where(eq(invoiceLines.invoiceId, row.id))
    .orderBy(invoiceLines.id);
  const document: InvoiceDocument = {
    number: row.number,
    status:
      row.amountRefunded > 0 && row.amountRefunded >= row.amountPaid && row.amountPaid > 0
        ? 'refunded'
        : row.status === 'paid' ||
            row.status === 'open' ||
            row.status === 'void' ||
            row.status === 'finalizing'
          ? row.status
          : 'void',
    issuedAt: row.issuedAt,
    paidAt: row.paidAt,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    currency: row.currency,
    seller: SELLER,
    buyer: row.buyer,
    lines: lines.map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unitAmount: line.unitAmount,
      amount: line.amount,
    })),
    subtotal: row.subtotal,
    discount:
      row.discountTotal > 0
        ? { label: await couponLabel(app, row.couponId), amount: row.discountTotal }
        : null,
    tax: { label: '', ratePercent: 0, amount: row.taxTotal },
    total: row.total,
    amountPaid: row.amountPaid,
    amountRefunded: row.amountRefunded,
  };
  const lang = isLang(row.lang) ? row.lang : 'en';
  return { pdf: await renderInvoicePdf(document, lang), filename: `${row.number}.pdf` };
}
