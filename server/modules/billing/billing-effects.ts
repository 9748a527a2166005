import { and, eq, isNull } from 'drizzle-orm';
import { REALTIME_EVENTS, systemEventsChannel } from '#shared/contracts/realtime.ts';
import { invoices, subscriptions } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import type { Applied } from './apply-snapshots.ts';
import { notifyBillingListeners } from './billing-listeners.ts';
import { planName, recipient, sendBillingMail } from './billing-mail.ts';
import { firstFailureAt, retryAt } from './dunning-schedule.ts';

/**
 * What follows a change to someone's billing once it is committed: their open pages hear of
 * it, the mail that belongs to it goes out, a renewal that just failed gets its retries, and
 * the other domains listening (billing-listeners.ts) take their part. Never throws: the
 * change stands whatever happens here (failures are logged).
 */
export async function afterApplied(app: App, applied: Applied): Promise<void> {
  try {
    await followUp(app, applied);
  } catch (error) {
    app.log.error({ err: error }, 'billing follow-up failed');
  }
  await notifyBillingListeners(app, applied);
}

async function followUp(app: App, applied: Applied): Promise<void> {
  const { userId } = applied;
  if (!userId) return;
  const subscription = applied.subscription?.row ?? null;
  await app.realtime.publish(systemEventsChannel(userId), REALTIME_EVENTS.subscriptionUpdated, {
    subscription_id: subscription?.id ?? applied.invoice?.row.subscriptionId ?? null,
  });
  const to = await recipient(app, userId);
  if (!to) return;
  const invoice = applied.invoice;
  if (
    invoice &&
    invoice.before !== 'paid' &&
    invoice.row.status === 'paid' &&
    invoice.row.total > 0
  ) {
    const plan = subscription ?? (await subscriptionOf(app, invoice.row.subscriptionId));
    await sendBillingMail(app.mailer, to, 'billing_receipt', {
      planName: plan ? await planName(app.db, plan.productId) : '',
      amount: to.money(invoice.row.amountPaid || invoice.row.total, invoice.row.currency),
      invoiceNumber: invoice.row.number ?? '',
      periodEnd: to.date(invoice.row.periodEnd),
      link: to.link('billing/invoices'),
    });
  }
  if (subscription && applied.subscription) {
    const { before } = applied.subscription;
    const name = await planName(app.db, subscription.productId);
    if (subscription.status === 'on_hold' && before !== 'on_hold' && subscription.graceUntil) {
      // The first failure of a renewal: retries begin (dunning.ts takes them from here).
      const first = firstFailureAt(subscription.graceUntil, app.config.billing.graceDays);
      const next = retryAt(first, 0);
      const [open] = await app.db
        .update(invoices)
        .set({ nextAttemptAt: next })
        .where(
          and(
            eq(invoices.subscriptionId, subscription.id),
            eq(invoices.status, 'open'),
            isNull(invoices.nextAttemptAt),
          ),
        )
        .returning();
      await sendBillingMail(app.mailer, to, 'billing_payment_failed', {
        planName: name,
        amount: to.money(open?.total ?? subscription.amount, subscription.currency),
        reason: open?.lastFailure ?? '',
        retryOn: next ? to.date(next) : null,
        graceEndsOn: to.date(subscription.graceUntil),
        link: to.link('billing/fix-payment-method'),
      });
    }
    if (subscription.status === 'canceled' && before && before !== 'canceled') {
      await sendBillingMail(app.mailer, to, 'billing_canceled', {
        planName: name,
        endsOn: to.date(subscription.currentPeriodEnd),
        link: to.link('billing/membership-v2'),
      });
    }
  }
  if (applied.refundCreated) {
    const [refunded] = await app.db
      .select()
      .from(invoices)
      .where(eq(invoices.id, applied.refundCreated.invoiceId));
    await sendBillingMail(app.mailer, to, 'billing_refunded', {
      amount: to.money(applied.refundCreated.amount, applied.refundCreated.currency),
      invoiceNumber: refunded?.number ?? '',
      link: to.link('billing/invoices'),
    });
  }
}

async function subscriptionOf(app: App, id: number | null) {
  if (!id) return null;
  const [row] = await app.db.select().from(subscriptions).where(eq(subscriptions.id, id));
  return row ?? null;
}
