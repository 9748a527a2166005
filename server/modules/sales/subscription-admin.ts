import { eq } from 'drizzle-orm';
import type { AuditAction } from '#shared/audit-actions.ts';
import {
  SALES_MESSAGES as M,
  type SubscriptionAnswer,
} from '#shared/contracts/admin/subscriptions.ts';
import type { ServiceId } from '#shared/subscription/actions.ts';
import { type SubscriptionRow, subscriptions } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';
import type { GatewaySubscription } from '../../platform/payments/gateway.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { applyAnswer } from '../billing/gateway-events.ts';
import { ask, gatewayFor } from './gateway-calls.ts';
import { type Acting, refundInvoice } from './invoice-refunds.ts';
import { latestPaidInvoice } from './money-left.ts';
import { staffActions, staffRefunds } from './staff-actions.ts';
import { adminSubscriptionById } from './subscriptions-query.ts';

// Staff's actions on a subscription (§7): each asked of its own gateway, whose answer is
// applied as the customer's own actions are (billing/subscription-actions.ts), so the
// customer's open pages hear of it through billing's live event.

async function subscriptionRow(app: App, id: number): Promise<SubscriptionRow> {
  const [row] = await app.db.select().from(subscriptions).where(eq(subscriptions.id, id));
  if (!row) throw new AppError('not_found', { info: M.subscriptionNotFound });
  return row;
}

const notAllowed = () => new AppError('conflict', { info: M.notAllowed });

async function answer(app: App, id: number): Promise<SubscriptionAnswer> {
  const subscription = await adminSubscriptionById(app.db, id);
  if (!subscription) throw new AppError('not_found', { info: M.subscriptionNotFound });
  return { subscription };
}

/** Applies the gateway's answer, then records who asked for it. */
async function applied(
  app: App,
  acting: Acting,
  row: SubscriptionRow,
  snapshot: GatewaySubscription,
  action: AuditAction,
  data: Record<string, unknown>,
) {
  const gateway = gatewayFor(app, row.gateway);
  const result = await applyAnswer(app, gateway, { subscription: snapshot });
  // The change itself is billing's, committed as the gateway's answer is applied; the
  // record of who asked follows it (the gateway call sits outside any transaction).
  await recordAudit(app.db, acting.request, {
    action,
    actorId: acting.actorId,
    subjectType: 'subscription',
    subjectId: row.id,
    data: {
      user_id: row.userId,
      gateway: row.gateway,
      status_before: row.status,
      status_after: result.subscription?.row.status ?? row.status,
      ...data,
    },
  });
}

/** §7 cancel: now, or at the end of the paid period; `plan_id` must be its plan. */
export async function cancelSubscription(
  app: App,
  acting: Acting,
  input: { plan_id: number; subscription_id: number; atThePeriodEnd: boolean },
): Promise<SubscriptionAnswer> {
  const row = await subscriptionRow(app, input.subscription_id);
  if (row.productId !== input.plan_id) throw AppError.field('plan_id', M.notThisPlan);
  const allowed = staffActions(row, 0);
  if (input.atThePeriodEnd ? !allowed.cancel_at_period_end : !allowed.cancel_now) {
    throw notAllowed();
  }
  const gateway = gatewayFor(app, row.gateway);
  const snapshot = await ask(app, 'cancel', () =>
    gateway.cancel(row.gatewayRef, { atPeriodEnd: input.atThePeriodEnd }),
  );
  await applied(app, acting, row, snapshot, 'subscriptions.canceled', {
    at_period_end: input.atThePeriodEnd,
  });
  return answer(app, row.id);
}

/** §7 resume: undoes a cancel at period end (never after PayPal's cancel, §4). */
export async function resumeSubscription(
  app: App,
  acting: Acting,
  subscriptionId: number,
): Promise<SubscriptionAnswer> {
  const row = await subscriptionRow(app, subscriptionId);
  if (!staffActions(row, 0).resume) throw notAllowed();
  const gateway = gatewayFor(app, row.gateway);
  const snapshot = await ask(app, 'resume', () => gateway.resume(row.gatewayRef));
  await applied(app, acting, row, snapshot, 'subscriptions.resumed', {});
  return answer(app, row.id);
}

/**
 * §7 refund: ends the subscription now at its gateway and gives back what is left of its
 * latest paid invoice, so the customer's plan shows §4 refunded.
 */
export async function refundSubscription(
  app: App,
  acting: Acting,
  input: { service_id: ServiceId; subscription_id: number; address?: string | undefined },
): Promise<SubscriptionAnswer & { refunded: number }> {
  const row = await subscriptionRow(app, input.subscription_id);
  if (row.serviceId !== input.service_id) throw AppError.field('service_id', M.notThisService);
  if (!staffRefunds(row.gateway)) throw notAllowed();
  const invoice = await latestPaidInvoice(app.db, row.id);
  if (!invoice) throw new AppError('conflict', { info: M.nothingToRefund });
  try {
    const result = await refundInvoice(
      app,
      acting,
      { invoiceId: invoice.id, endSubscription: true, address: input.address },
      { action: 'subscriptions.refunded', subjectType: 'subscription', subjectId: row.id },
    );
    return { ...(await answer(app, row.id)), refunded: result.refunded };
  } catch (error) {
    // Nothing left of it is the subscription's state, not a field of this call.
    if (error instanceof AppError && error.validation?.amount) {
      throw new AppError('conflict', { info: M.nothingToRefund });
    }
    throw error;
  }
}
