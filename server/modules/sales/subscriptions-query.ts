import { and, asc, count, desc, eq, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import type {
  AdminSubscription,
  SubscriptionsQuery,
} from '#shared/contracts/admin/subscriptions.ts';
import { listPage, pageWindow } from '#shared/contracts/list.ts';
import type { Database } from '../../db/client.ts';
import { containing } from '../../db/like.ts';
import { products, subscriptions, users } from '../../db/schema/index.ts';
import { dayRange } from './day-range.ts';
import { latestPaidOf } from './money-left.ts';
import { presentAdminSubscription } from './sales-presenters.ts';

const SORTS = {
  created_at: subscriptions.createdAt,
  current_period_end: subscriptions.currentPeriodEnd,
  amount: subscriptions.amount,
  id: subscriptions.id,
} as const;

function conditions(query: SubscriptionsQuery): SQL | undefined {
  const where: (SQL | undefined)[] = [];
  if (query.status) where.push(eq(subscriptions.status, query.status));
  if (query.service_id !== undefined) where.push(eq(subscriptions.serviceId, query.service_id));
  if (query.gateway) where.push(eq(subscriptions.gateway, query.gateway));
  if (query.product_id) where.push(eq(subscriptions.productId, query.product_id));
  if (query.plan) where.push(eq(products.plan, query.plan));
  if (query.user_id) where.push(eq(subscriptions.userId, query.user_id));
  if (query.search) {
    const pattern = containing(query.search);
    where.push(or(ilike(users.email, pattern), ilike(users.name, pattern)));
  }
  const { start, end } = dayRange(query.from, query.to);
  if (start) where.push(gte(subscriptions.createdAt, start));
  if (end) where.push(lt(subscriptions.createdAt, end));
  return and(...where);
}

function selectSubscriptions(db: Database) {
  return db
    .select({
      subscription: subscriptions,
      customer: { id: users.id, email: users.email, name: users.name },
      product: { id: products.id, plan: products.plan, name: products.name },
    })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .innerJoin(products, eq(products.id, subscriptions.productId));
}

type Row = Awaited<ReturnType<typeof selectSubscriptions>>[number];

async function present(db: Database, rows: Row[]): Promise<AdminSubscription[]> {
  const latest = await latestPaidOf(
    db,
    rows.map((row) => row.subscription.id),
  );
  return rows.map((row) =>
    presentAdminSubscription(row.subscription, {
      customer: row.customer,
      product: row.product,
      latestPaid: latest.get(row.subscription.id),
    }),
  );
}

/** §7 GET /subscriptions: the subscriptions that match, in the order asked, a page at a time. */
export async function listAdminSubscriptions(db: Database, query: SubscriptionsQuery) {
  const where = conditions(query);
  const by = sql`${SORTS[query.sort]} ${sql.raw(query.direction)} nulls last`;
  const order = query.direction === 'asc' ? asc : desc;
  const { offset, limit } = pageWindow(query);
  const [rows, [total]] = await Promise.all([
    selectSubscriptions(db)
      .where(where)
      .orderBy(by, order(subscriptions.id))
      .offset(offset)
      .limit(limit),
    db
      .select({ n: count() })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .innerJoin(products, eq(products.id, subscriptions.productId))
      .where(where),
  ]);
  return listPage(await present(db, rows), query, total?.n ?? 0);
}

/** One subscription as staff's lists show it. */
export async function adminSubscriptionById(
  db: Database,
  id: number,
): Promise<AdminSubscription | null> {
  const rows = await selectSubscriptions(db).where(eq(subscriptions.id, id));
  const [presented] = await present(db, rows);
  return presented ?? null;
}
