import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AuditAction } from '#shared/audit-actions.ts';
import { SALES_MESSAGES as M } from '#shared/contracts/admin/subscriptions.ts';
import type { SubscriptionStatus } from '#shared/subscription/actions.ts';
import { retryOnDeadlock } from '../../db/errors.ts';
import { invoices, refunds, subscriptions } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';
import type { GatewayRefund } from '../../platform/payments/gateway.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { applyAnswer } from '../billing/gateway-events.ts';
import { ask, gatewayFor, oneRefundAtATime } from './gateway-calls.ts';
import { adminInvoiceById } from './invoices-query.ts';
import { leftOf, paymentsLeft } from './money-left.ts';
import { staffRefunds } from './staff-actions.ts';
import { adminSubscriptionById } from './subscriptions-query.ts';

/** The acting admin and their request. */
export interface Acting {
  request: FastifyRequest;
  actorId: number;
}

export interface RefundInput {
  invoiceId: number;
  /** Minor units; absent: all that is left. */
  amount?: number | undefined;
  reason?: string | undefined;
  /** End its subscription now too (§4 refunded once all of it is given back). */
  endSubscription: boolean;
  /** The customer's wallet: crypto goes back there. */
  address?: string | undefined;
}

/** What the audit row is about: the invoice, or the subscription staff refunded. */
export interface RefundAudit {
  action: Extract<AuditAction, 'invoices.refunded' | 'subscriptions.refunded'>;
  subjectType: 'invoice' | 'subscription';
  subjectId: number;
}

const RUNNING: readonly SubscriptionStatus[] = ['active', 'canceled', 'paused', 'on_hold'];

/**
 * Gives back all or part of a paid invoice at its gateway, once: one refund of an invoice
 * runs at a time, and what is left is read from the payments and refunds we hold when it
 * starts. Each payment is refunded for its share with a reason that names the invoice and
 * the refund's place in its series, which gateways that derive an idempotency key from the
 * call (PayPal) turn into one refund should a lost answer make us ask again.
 */
export async function refundInvoice(
  app: App,
  acting: Acting,
  input: RefundInput,
  audit?: RefundAudit,
) {
  const [invoice] = await app.db.select().from(invoices).where(eq(invoices.id, input.invoiceId));
  if (!invoice) throw new AppError('not_found', { info: M.invoiceNotFound });
  if (!staffRefunds(invoice.gateway)) throw new AppError('conflict', { info: M.notAllowed });
  const crypto = invoice.gateway === 'cryptomus';
  if (crypto && !input.address) throw AppError.field('address', M.addressRequired);
  const gateway = gatewayFor(app, invoice.gateway);

  return oneRefundAtATime(app, invoice.id, acting.actorId, async () => {
    const [now] = await app.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    const payments = await paymentsLeft(app.db, invoice.id);
    const available = now ? leftOf(now, payments) : 0;
    if (available <= 0) throw AppError.field('amount', M.nothingToRefund);
    const amount = input.amount ?? available;
    if (amount > available) throw AppError.field('amount', M.refundTooLarge);
    // Cryptomus sends back a whole payment or nothing.
    if (crypto && amount !== available) throw AppError.field('amount', M.wholeOnly);

    const [subscription] = invoice.subscriptionId
      ? await app.db
          .select()
          .from(subscriptions)
          .where(eq(subscriptions.id, invoice.subscriptionId))
      : [];
    // A crypto purchase cannot be ended at Cryptomus: its refund ends it.
    let ended = false;
    if (input.endSubscription && subscription && RUNNING.includes(subscription.status) && !crypto) {
      const snapshot = await ask(app, 'cancel', () =>
        gateway.cancel(subscription.gatewayRef, { atPeriodEnd: false }),
      );
      await applyAnswer(app, gateway, { subscription: snapshot });
      ended = true;
    }

    const given: GatewayRefund[] = [];
    let remaining = amount;
    try {
      for (const payment of payments) {
        if (remaining <= 0) break;
        const take = Math.min(payment.left, remaining);
        if (take <= 0) continue;
        const options = {
          amount: take,
          reason: `${input.reason || 'Refund'} (${invoice.number ?? invoice.id} #${payment.refundCount + 1})`,
          ...(input.address ? { address: input.address } : {}),
        };
        const refund = await ask(app, 'refund', () => gateway.refund(payment.ref, options));
        given.push(refund);
        remaining -= take;
        await retryOnDeadlock(() => applyAnswer(app, gateway, { refund }));
      }
    } finally {
      if (given.length > 0 || ended) {
        await retryOnDeadlock(() =>
          app.db.transaction(async (tx) => {
            // The invoice first, as billing's own appliers lock it: the gateway's webhook of this
            // very refund may be applying beside us.
            await tx
              .update(invoices)
              .set({
                amountRefunded: sql`greatest(${invoices.amountRefunded}, (select coalesce(sum(${refunds.amount}), 0) from ${refunds} where ${refunds.invoiceId} = ${invoice.id}))`,
              })
              .where(eq(invoices.id, invoice.id));
            for (const refund of given) {
              await tx
                .update(refunds)
                .set({ createdBy: acting.actorId })
                .where(
                  and(eq(refunds.gateway, invoice.gateway), eq(refunds.gatewayRef, refund.ref)),
                );
            }
            const about = audit ?? {
              action: 'invoices.refunded',
              subjectType: 'invoice',
              subjectId: invoice.id,
            };
            await recordAudit(tx, acting.request, {
              action: about.action,
              actorId: acting.actorId,
              subjectType: about.subjectType,
              subjectId: about.subjectId,
              data: {
                invoice_id: invoice.id,
                invoice_number: invoice.number,
                user_id: invoice.userId,
                amount: amount - remaining,
                asked: amount,
                currency: invoice.currency,
                reason: input.reason ?? null,
                refunds: given.map((refund) => refund.ref),
                subscription_id: subscription?.id ?? null,
                ended_subscription: ended,
              },
            });
          }),
        );
      }
    }

    await refreshFromGateway(app, gateway, invoice.gatewayRef, subscription?.gatewayRef ?? null);
    const presented = await adminInvoiceById(app.db, invoice.id);
    if (!presented) throw new AppError('not_found', { info: M.invoiceNotFound });
    return {
      invoice: presented,
      refunded: amount - remaining,
      subscription: subscription ? await adminSubscriptionById(app.db, subscription.id) : null,
    };
  });
}

/**
 * Reads the invoice and subscription back and applies them, so the customer's page shows
 * the outcome at once (the subscription §4 refunded once ended and given back in full).
 * The money has moved by now: a failed read is left to the gateway's webhooks.
 */
async function refreshFromGateway(
  app: App,
  gateway: ReturnType<typeof gatewayFor>,
  invoiceRef: string,
  subscriptionRef: string | null,
) {
  try {
    const [invoice, subscription] = await Promise.all([
      gateway.fetchInvoice(invoiceRef),
      subscriptionRef ? gateway.fetchSubscription(subscriptionRef) : null,
    ]);
    await applyAnswer(app, gateway, {
      ...(invoice ? { invoice } : {}),
      ...(subscription ? { subscription } : {}),
    });
  } catch (error) {
    app.log.error({ err: error }, 'reading back a refund failed; its webhooks will tell');
  }
}
