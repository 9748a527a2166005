import { and, asc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import type { GatewayName } from '#shared/billing/billing-values.ts';
import type { SubscriptionStatus } from '#shared/subscription/actions.ts';
import { invoices, payments, refunds, subscriptions } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Applied } from './apply-snapshots.ts';

const RUNNING: readonly SubscriptionStatus[] = ['active', 'canceled', 'paused', 'on_hold'];
/** Gateways whose orders start on our order page (not the App Store, not bonus days). */
const ORDERED_HERE: ReadonlySet<GatewayName> = new Set([
  'sandbox',
  'stripe',
  'paypal',
  'cryptomus',
]);

/**
 * A customer who started two orders at a provider's page (two tabs, or back and another
 * plan) and approved both pays twice: our order check only sees subscriptions already paid.
 * When a second one starts running beside a paid one, the newer is ended at its gateway and
 * its payment given back (refundDuplicate); what a gateway cannot undo by itself (a crypto
 * refund needs the customer's wallet) is left to staff, with an audit entry either way.
 */
export async function undoDuplicateOrder(
  app: App,
  applied: Applied,
  apply: (gateway: GatewayName, snapshots: object) => Promise<unknown>,
): Promise<void> {
  const change = applied.subscription;
  if (!change) return;
  const { row } = change;
  if (!ORDERED_HERE.has(row.gateway) || row.serviceId === 5) return;
  // Only at the moment it starts running: afterwards it is the customer's plan.
  if (!RUNNING.includes(row.status) || (change.before && RUNNING.includes(change.before))) return;
  const paidBy = (id: typeof subscriptions.id) =>
    sql`exists (select 1 from ${invoices} where ${invoices.subscriptionId} = ${id} and ${invoices.status} = 'paid')`;
  const [older] = await app.db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, row.userId),
        ne(subscriptions.id, row.id),
        ne(subscriptions.serviceId, 5),
        inArray(subscriptions.status, [...RUNNING]),
        lt(subscriptions.createdAt, row.createdAt),
        paidBy(subscriptions.id),
      ),
    )
    .limit(1);
  if (!older) return;
  const gateway = app.payments.get(row.gateway);
  const outcome: Record<string, unknown> = { kept_subscription_id: older.id };
  try {
    if (!gateway) throw new Error(`gateway ${row.gateway} is not registered`);
    await apply(row.gateway, {
      subscription: await gateway.cancel(row.gatewayRef, { atPeriodEnd: false }),
    });
    outcome.canceled = true;
    // Its payment may be reported a moment later than the subscription: the refund is a job
    // that waits for it.
    await app.queue.send(
      REFUND_DUPLICATE_QUEUE,
      { subscriptionId: row.id },
      { singletonKey: String(row.id), retryLimit: 10, retryDelaySeconds: 15 },
    );
  } catch (error) {
    outcome.error = error instanceof Error ? error.message : String(error);
    app.log.error({ err: error, subscription: row.id }, 'a duplicate order needs staff');
  }
  await recordAudit(app.db, null, {
    action: 'billing.duplicate_order_undone',
    actorId: null,
    subjectType: 'subscription',
    subjectId: row.id,
    data: outcome,
  });
}

export const REFUND_DUPLICATE_QUEUE = 'billing.refund-duplicate';

/**
 * Gives back what a duplicate order was charged, once its payment is known: a job retried
 * until the payment has been reported. Each payment is refunded for what is left of it, so
 * a retry after a partial run refunds nothing twice (and the gateway's refund is idempotent
 * per payment besides).
 */
export async function refundDuplicate(
  app: App,
  subscriptionId: number,
  apply: (gateway: GatewayName, snapshots: object) => Promise<unknown>,
): Promise<number> {
  const [row] = await app.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId));
  const gateway = row && app.payments.get(row.gateway);
  if (!row || !gateway) return 0;
  const paid = await app.db
    .select({
      ref: payments.gatewayRef,
      amount: payments.amount,
      refunded: sql<number>`coalesce((select sum(${refunds.amount}) from ${refunds} where ${refunds.paymentId} = ${payments.id}), 0)::int`,
    })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(and(eq(invoices.subscriptionId, row.id), eq(payments.status, 'succeeded')))
    .orderBy(asc(payments.id));
  if (paid.length === 0) throw new Error(`no payment of duplicate ${row.id} reported yet`);
  let refunded = 0;
  for (const payment of paid) {
    const left = payment.amount - payment.refunded;
    if (left <= 0) continue;
    await apply(row.gateway, {
      refund: await gateway.refund(payment.ref, { amount: left, reason: 'duplicate' }),
    });
    refunded += 1;
  }
  if (refunded === 0) return 0;
  await recordAudit(app.db, null, {
    action: 'billing.duplicate_order_undone',
    actorId: null,
    subjectType: 'subscription',
    subjectId: row.id,
    data: { refunded },
  });
  return refunded;
}
