import { and, asc, count, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type {
  AdminProduct,
  AdminProductsQuery,
  AdminService,
  ProductKind,
} from '#shared/contracts/admin/products.ts';
import { listPage, pageWindow } from '#shared/contracts/list.ts';
import { SERVICE_ID_LIST, type ServiceId } from '#shared/subscription/actions.ts';
import type { Database } from '../../db/client.ts';
import { containing } from '../../db/like.ts';
import { type ProductRow, products } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { PaymentGateways } from '../../platform/payments/payments-plugin.ts';
import { presentAdminProduct, presentAdminProducts } from './product-presenter.ts';

// What staff read of the catalog. A deleted product (deleted_at) is nowhere here: it is kept
// only for the subscriptions and invoices that name it.

export const notDeleted = isNull(products.deletedAt);

const SORTS = {
  sort: products.sort,
  name: sql`lower(${products.name})`,
  amount: products.amount,
  created_at: products.createdAt,
} as const;

/** Plans are neither addons nor includable; addons are sold beside a plan; includable ones are the addons plans may bundle. */
export function ofKind(kind: ProductKind | undefined): SQL | undefined {
  switch (kind) {
    case 'plans':
      return and(eq(products.additional, false), eq(products.includable, false));
    case 'addons':
      return eq(products.additional, true);
    case 'includable':
      return eq(products.includable, true);
    default:
      return undefined;
  }
}

function flag(column: PgColumn, on: boolean | undefined): SQL | undefined {
  return on === undefined ? undefined : eq(column, on);
}

function conditions(query: AdminProductsQuery): SQL | undefined {
  const where: (SQL | undefined)[] = [notDeleted, ofKind(query.kind)];
  if (query.service_id !== undefined) where.push(eq(products.serviceId, query.service_id));
  if (query.currency) where.push(eq(products.currency, query.currency));
  where.push(flag(products.visible, query.visible));
  where.push(flag(products.disabled, query.disabled));
  where.push(flag(products.onetime, query.onetime));
  if (query.search) {
    const pattern = containing(query.search);
    where.push(or(ilike(products.name, pattern), ilike(products.plan, pattern)));
  }
  return and(...where);
}

/** §2 a gateway's products list: filtered, in the order asked, a page at a time. */
export async function listProducts(db: Database, query: AdminProductsQuery) {
  const where = conditions(query);
  const order = query.direction === 'asc' ? asc : desc;
  const { offset, limit } = pageWindow(query);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(products)
      .where(where)
      // The id breaks ties, so a page never repeats or skips a row of equal sort values.
      .orderBy(order(SORTS[query.sort]), order(products.id))
      .offset(offset)
      .limit(limit),
    db.select({ n: count() }).from(products).where(where),
  ]);
  return listPage(await presentAdminProducts(db, rows), query, total?.n ?? 0);
}

/** A product staff may still work on; a deleted one is gone for them. */
export async function findProduct(db: Database, id: number): Promise<ProductRow> {
  const [row] = await db
    .select()
    .from(products)
    .where(and(eq(products.id, id), notDeleted));
  if (!row) throw new AppError('not_found');
  return row;
}

export async function viewProduct(db: Database, id: number): Promise<AdminProduct> {
  return presentAdminProduct(db, await findProduct(db, id));
}

/** Products by id, in the order asked; unknown and deleted ones are left out. */
export async function productsIn(db: Database, ids: number[]): Promise<AdminProduct[]> {
  const rows = await db
    .select()
    .from(products)
    .where(and(inArray(products.id, ids), notDeleted));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ordered = [...new Set(ids)].flatMap((id) => {
    const row = byId.get(id);
    return row ? [row] : [];
  });
  return presentAdminProducts(db, ordered);
}

/** The addons plans may include, of a service and currency when asked. */
export async function includableProducts(
  db: Database,
  filter: { service_id?: ServiceId | undefined; currency?: string | undefined },
): Promise<AdminProduct[]> {
  const rows = await db
    .select()
    .from(products)
    .where(
      and(
        notDeleted,
        ofKind('includable'),
        filter.service_id === undefined ? undefined : eq(products.serviceId, filter.service_id),
        filter.currency ? eq(products.currency, filter.currency) : undefined,
      ),
    )
    .orderBy(asc(products.sort), asc(products.id));
  return presentAdminProducts(db, rows);
}

/** §7 /services: each payment service, the gateway selling it now, and its catalog's size. */
export async function servicesOverview(
  db: Database,
  payments: PaymentGateways,
): Promise<AdminService[]> {
  const rows = await db
    .select({
      serviceId: products.serviceId,
      currency: products.currency,
      n: sql<number>`count(*)::int`,
      visible: sql<number>`count(*) filter (where ${products.visible} and not ${products.disabled})::int`,
    })
    .from(products)
    .where(notDeleted)
    .groupBy(products.serviceId, products.currency)
    .orderBy(asc(products.currency));
  return SERVICE_ID_LIST.map((serviceId) => {
    const mine = rows.filter((row) => row.serviceId === serviceId);
    const selling = payments.forService(serviceId);
    // A gateway staff switched off still names the service; none configured names nothing.
    const gateway =
      selling ?? payments.all().find((candidate) => candidate.serviceId === serviceId);
    return {
      service_id: serviceId,
      gateway: gateway?.name ?? null,
      selling: selling !== undefined,
      products: mine.reduce((sum, row) => sum + row.n, 0),
      visible_products: mine.reduce((sum, row) => sum + row.visible, 0),
      currencies: mine.map((row) => row.currency),
    };
  });
}
