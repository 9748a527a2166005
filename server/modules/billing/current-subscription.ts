import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { SubscriptionDetail } from '#shared/contracts/billing.ts';
import type { ServiceId } from '#shared/subscription/actions.ts';
import type { Database } from '../../db/client.ts';
import {
  cardSources,
  invoices,
  products,
  type SubscriptionRow,
  subscriptionItems,
  subscriptions,
} from '../../db/schema/index.ts';
import { presentCard } from './cards-view.ts';

/**
 * A running paid plan comes before bonus days granted beside it (service 5): the plan is
 * what the customer manages; the bonus run only shows when nothing paid is running.
 */
const paidFirst = sql`case when ${subscriptions.serviceId} <> 5 and ${subscriptions.status} in ('active', 'canceled', 'paused', 'on_hold') then 0 else 1 end`;

/**
 * §3 "a current subscription": the user's latest one that was ever paid for. An order whose
 * first payment was declined or never confirmed is not one.
 */
export async function currentSubscription(
  db: Database,
  userId: number,
): Promise<SubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        sql`exists (select 1 from ${invoices} where ${invoices.subscriptionId} = ${subscriptions.id} and ${invoices.status} = 'paid')`,
      ),
    )
    .orderBy(paidFirst, desc(subscriptions.createdAt), desc(subscriptions.id))
    .limit(1);
  return row ?? null;
}

/**
 * The guards' and menus' read (§2), on every billing navigation and every live change: the
 * current subscription's status and the finalizing flag in one indexed query, built once
 * per database (see identity/sessions.ts for why an unnamed prepared statement).
 */
function prepareCurrentState(db: Database) {
  // Spelled out with an alias: inside a select list Drizzle leaves columns unqualified, and
  // an unqualified `id` would be the invoice's own.
  const latestInvoice = sql<string | null>`(select latest.status from invoices latest
    where latest.subscription_id = "subscriptions"."id"
    order by latest.issued_at desc, latest.id desc limit 1)`;
  return db
    .select({
      status: subscriptions.status,
      serviceId: subscriptions.serviceId,
      onetime: subscriptions.onetime,
      latestInvoice,
    })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, sql.placeholder('userId')),
        sql`exists (select 1 from ${invoices} where ${invoices.subscriptionId} = ${subscriptions.id} and ${invoices.status} = 'paid')`,
      ),
    )
    .orderBy(paidFirst, desc(subscriptions.createdAt), desc(subscriptions.id))
    .limit(1)
    .prepare('');
}

const currentStateQueries = new WeakMap<Database, ReturnType<typeof prepareCurrentState>>();

export async function currentSubscriptionState(db: Database, userId: number) {
  let query = currentStateQueries.get(db);
  if (!query) {
    query = prepareCurrentState(db);
    currentStateQueries.set(db, query);
  }
  const [row] = await query.execute({ userId });
  if (!row) return null;
  return {
    status: row.status,
    serviceId: row.serviceId,
    onetime: row.onetime,
    lastInvoiceFinalizing: row.latestInvoice === 'finalizing',
  };
}

/** §3 "last-invoice-finalizing flag": the subscription's latest invoice is still being made. */
export async function lastInvoiceFinalizing(
  db: Database,
  subscriptionId: number,
): Promise<boolean> {
  const [latest] = await db
    .select({ status: invoices.status })
    .from(invoices)
    .where(eq(invoices.subscriptionId, subscriptionId))
    .orderBy(desc(invoices.issuedAt), desc(invoices.id))
    .limit(1);
  return latest?.status === 'finalizing';
}

const iso = (at: Date | null) => (at ? at.toISOString() : null);

export async function presentSubscription(
  db: Database,
  row: SubscriptionRow,
): Promise<SubscriptionDetail> {
  const items = await db
    .select({
      productId: subscriptionItems.productId,
      amount: subscriptionItems.amount,
      quantity: subscriptionItems.quantity,
      name: products.name,
      additional: products.additional,
    })
    .from(subscriptionItems)
    .innerJoin(products, eq(products.id, subscriptionItems.productId))
    .where(eq(subscriptionItems.subscriptionId, row.id))
    .orderBy(subscriptionItems.id);
  const [plan] = await db.select().from(products).where(eq(products.id, row.productId));
  const [card] = row.paymentMethodRef
    ? await db
        .select()
        .from(cardSources)
        .where(
          and(
            eq(cardSources.userId, row.userId),
            inArray(cardSources.gatewayRef, [row.paymentMethodRef]),
          ),
        )
    : [];
  return {
    subscription_id: row.id,
    status: row.status,
    service_id: row.serviceId as ServiceId,
    onetime: row.onetime,
    exists: true,
    payment_method: { type: row.paymentMethodType, card: card ? presentCard(card) : null },
    plan: {
      plan_id: plan?.plan ?? '',
      product_id: row.productId,
      name: plan?.name ?? '',
      interval: plan?.interval ?? null,
      interval_count: plan?.intervalCount ?? 1,
    },
    subscription_items: items.map((item) => ({
      product_id: item.productId,
      name: item.name,
      amount: item.amount,
      quantity: item.quantity,
      additional: item.additional,
    })),
    currency: row.currency,
    amount: row.amount,
    current_period_start: iso(row.currentPeriodStart),
    current_period_end: iso(row.currentPeriodEnd),
    cancel_at_period_end: row.cancelAtPeriodEnd,
    paused_at: iso(row.pausedAt),
    grace_until: iso(row.graceUntil),
    ended_at: iso(row.endedAt),
  };
}
