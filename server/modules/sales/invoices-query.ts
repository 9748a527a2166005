import { and, asc, count, desc, eq, gt, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import { GATEWAYS, type GatewayName } from '#shared/billing/billing-values.ts';
import type { InvoicesQuery } from '#shared/contracts/admin/invoices.ts';
import { listPage, pageWindow } from '#shared/contracts/list.ts';
import type { Database } from '../../db/client.ts';
import { containing } from '../../db/like.ts';
import { coupons, invoiceLines, invoices, users } from '../../db/schema/index.ts';
import { dayRange } from './day-range.ts';
import { presentAdminInvoice } from './sales-presenters.ts';

export type InvoiceFilters = Omit<InvoicesQuery, 'page' | 'per_page' | 'sort' | 'direction'>;

const SORTS = {
  issued_at: invoices.issuedAt,
  paid_at: invoices.paidAt,
  total: invoices.total,
  number: invoices.number,
  id: invoices.id,
} as const;

const gatewaysOf = (serviceId: number) =>
  (Object.keys(GATEWAYS) as GatewayName[]).filter((name) => GATEWAYS[name] === serviceId);

export function invoiceConditions(filters: InvoiceFilters): SQL | undefined {
  const where: (SQL | undefined)[] = [];
  if (filters.status) where.push(eq(invoices.status, filters.status));
  if (filters.gateway) where.push(eq(invoices.gateway, filters.gateway));
  if (filters.service_id !== undefined) {
    where.push(sql`${invoices.gateway} in ${gatewaysOf(filters.service_id)}`);
  }
  if (filters.currency) where.push(eq(invoices.currency, filters.currency));
  if (filters.country) where.push(eq(invoices.country, filters.country));
  if (filters.user_id) where.push(eq(invoices.userId, filters.user_id));
  if (filters.refunded !== undefined) {
    where.push(filters.refunded ? gt(invoices.amountRefunded, 0) : eq(invoices.amountRefunded, 0));
  }
  if (filters.search) {
    const pattern = containing(filters.search);
    where.push(
      or(ilike(users.email, pattern), ilike(users.name, pattern), ilike(invoices.number, pattern)),
    );
  }
  const { start, end } = dayRange(filters.from, filters.to);
  if (start) where.push(gte(invoices.issuedAt, start));
  if (end) where.push(lt(invoices.issuedAt, end));
  return and(...where);
}

/** The first line's text: what was bought. */
const description = sql<
  string | null
>`(select ${invoiceLines.description} from ${invoiceLines} where ${invoiceLines.invoiceId} = ${invoices.id} order by ${invoiceLines.id} limit 1)`;

export function selectInvoices(db: Database) {
  return db
    .select({
      invoice: invoices,
      customer: { id: users.id, email: users.email, name: users.name },
      couponCode: coupons.code,
      description,
    })
    .from(invoices)
    .leftJoin(users, eq(users.id, invoices.userId))
    .leftJoin(coupons, eq(coupons.id, invoices.couponId));
}

export type InvoiceListRow = Awaited<ReturnType<typeof selectInvoices>>[number];

export const presentRow = (row: InvoiceListRow) =>
  presentAdminInvoice(row.invoice, {
    customer: row.customer?.id ? row.customer : null,
    description: row.description,
    couponCode: row.couponCode,
  });

/** §7 GET /invoices: the invoices that match, in the order asked, a page at a time. */
export async function listAdminInvoices(db: Database, query: InvoicesQuery) {
  const where = invoiceConditions(query);
  const by = sql`${SORTS[query.sort]} ${sql.raw(query.direction)} nulls last`;
  const order = query.direction === 'asc' ? asc : desc;
  const { offset, limit } = pageWindow(query);
  const [rows, [total]] = await Promise.all([
    selectInvoices(db).where(where).orderBy(by, order(invoices.id)).offset(offset).limit(limit),
    db
      .select({ n: count() })
      .from(invoices)
      .leftJoin(users, eq(users.id, invoices.userId))
      .where(where),
  ]);
  return listPage(rows.map(presentRow), query, total?.n ?? 0);
}

/** §7 GET /invoices/latest: the newest invoices that carry a number (drafts are not news). */
export async function latestInvoices(db: Database, limit: number) {
  const rows = await selectInvoices(db)
    .where(sql`${invoices.number} is not null`)
    .orderBy(desc(invoices.issuedAt), desc(invoices.id))
    .limit(limit);
  return { items: rows.map(presentRow) };
}

/** One invoice as staff's lists show it. */
export async function adminInvoiceById(db: Database, id: number) {
  const [row] = await selectInvoices(db).where(eq(invoices.id, id));
  return row ? presentRow(row) : null;
}
