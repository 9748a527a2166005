import { and, eq, gt, isNotNull, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { invoices, subscriptions } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { planName, recipient, sendBillingMail } from './billing-mail.ts';
import { releaseStaleCouponHolds } from './coupon-uses.ts';
import { firstFailureAt, retriesDue, retryAt } from './dunning-schedule.ts';
import { applyAnswer, readBackSubscription } from './gateway-events.ts';
import { lapseEndedPeriods } from './reconciliation.ts';

const DAY_MS = 86_400_000;
/** §issue: the renewal reminder goes out 3 days before. */
const REMINDER_DAYS = 3;

/**
 * Billing's own timed work, run by a durable schedule every minute (once across processes)
 * and whenever the sandbox's test clock moves: retries of failed renewals, renewal
 * reminders, the end of one-time and bonus periods, and coupon uses held for orders that
 * bought nothing. Each item is claimed with a conditional update first, so two runs never
 * retry one invoice or remind one period twice.
 */
export async function billingSweep(app: App): Promise<void> {
  await retryFailedRenewals(app);
  await remindRenewals(app);
  await lapseEndedPeriods(app);
  await releaseStaleCouponHolds(app);
}

/** A claimed retry's lease: a process that dies mid-call leaves it to be retried then. */
const LEASE_MS = 15 * 60_000;

/**
 * An on-hold subscription whose open invoice has no retry set (its first failure's
 * follow-up was lost to a crash, or events came in another order) gets the one now due.
 */
async function scheduleMissingRetries(app: App, now: Date): Promise<void> {
  const unscheduled = await app.db
    .select({ invoice: invoices.id, graceUntil: subscriptions.graceUntil })
    .from(invoices)
    .innerJoin(subscriptions, eq(subscriptions.id, invoices.subscriptionId))
    .where(
      and(
        eq(invoices.status, 'open'),
        isNull(invoices.nextAttemptAt),
        eq(subscriptions.status, 'on_hold'),
        isNotNull(subscriptions.graceUntil),
      ),
    )
    .limit(100);
  for (const { invoice, graceUntil } of unscheduled) {
    if (!graceUntil) continue;
    const first = firstFailureAt(graceUntil, app.config.billing.graceDays);
    const due = retriesDue(first, now);
    const next = retryAt(first, Math.max(due - 1, 0)) ?? now;
    await app.db
      .update(invoices)
      .set({ nextAttemptAt: next })
      .where(and(eq(invoices.id, invoice), isNull(invoices.nextAttemptAt)));
  }
}

async function retryFailedRenewals(app: App): Promise<void> {
  const now = app.payments.clock.now();
  await scheduleMissingRetries(app, now);
  const due = await app.db
    .select({ invoice: invoices, subscription: subscriptions })
    .from(invoices)
    .innerJoin(subscriptions, eq(subscriptions.id, invoices.subscriptionId))
    .where(
      and(
        eq(invoices.status, 'open'),
        isNotNull(invoices.nextAttemptAt),
        lte(invoices.nextAttemptAt, now),
        eq(subscriptions.status, 'on_hold'),
      ),
    )
    .limit(100);
  for (const { invoice, subscription } of due) {
    const attemptAt = invoice.nextAttemptAt;
    if (!attemptAt || !subscription.graceUntil) continue;
    const lease = new Date(now.getTime() + LEASE_MS);
    const [claimed] = await app.db
      .update(invoices)
      .set({ nextAttemptAt: lease })
      .where(and(eq(invoices.id, invoice.id), eq(invoices.nextAttemptAt, attemptAt)))
      .returning({ id: invoices.id });
    if (!claimed) continue;
    const gateway = app.payments.get(subscription.gateway);
    if (!gateway) continue;
    const first = firstFailureAt(subscription.graceUntil, app.config.billing.graceDays);
    const made = retriesDue(first, attemptAt);
    try {
      const outcome = await gateway.payInvoice(invoice.gatewayRef, {
        idempotencyKey: `dunning:${invoice.id}:${made}`,
      });
      if (outcome.kind === 'paid') {
        await app.db
          .update(invoices)
          .set({ nextAttemptAt: null })
          .where(eq(invoices.id, invoice.id));
        await applyAnswer(app, gateway, { invoice: outcome.invoice });
        await readBackSubscription(app, gateway, subscription.gatewayRef);
        continue;
      }
      if (outcome.kind === 'declined')
        await applyAnswer(app, gateway, { invoice: outcome.invoice });
      const next = retryAt(first, made);
      const to = await recipient(app, subscription.userId);
      if (next) {
        await app.db
          .update(invoices)
          .set({ nextAttemptAt: next })
          .where(eq(invoices.id, invoice.id));
      } else {
        const ended = await gateway.endForNonPayment(subscription.gatewayRef);
        await applyAnswer(app, gateway, { subscription: ended });
      }
      if (to) {
        await sendBillingMail(app.mailer, to, 'billing_payment_failed', {
          planName: await planName(app.db, subscription.productId),
          amount: to.money(invoice.total, invoice.currency),
          reason: outcome.kind === 'declined' ? outcome.decline.message : '',
          retryOn: next ? to.date(next) : null,
          graceEndsOn: next ? to.date(subscription.graceUntil) : null,
          link: to.link(next ? 'billing/fix-payment-method' : 'billing/reactivate-v2'),
        });
      }
    } catch (error) {
      // The gateway did not answer: the same retry is made again at the next sweep.
      await app.db
        .update(invoices)
        .set({ nextAttemptAt: attemptAt })
        .where(eq(invoices.id, invoice.id));
      app.log.warn(
        { err: error, invoice: invoice.id },
        'renewal retry failed to reach the gateway',
      );
    }
  }
}

async function remindRenewals(app: App): Promise<void> {
  const now = app.payments.clock.now();
  const horizon = new Date(now.getTime() + REMINDER_DAYS * DAY_MS);
  const due = await app.db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.status, 'active'),
        eq(subscriptions.onetime, false),
        eq(subscriptions.cancelAtPeriodEnd, false),
        gt(subscriptions.currentPeriodEnd, now),
        lte(subscriptions.currentPeriodEnd, horizon),
        or(
          isNull(subscriptions.reminderSentFor),
          ne(subscriptions.reminderSentFor, subscriptions.currentPeriodEnd),
        ),
      ),
    )
    .limit(200);
  for (const subscription of due) {
    const [claimed] = await app.db
      .update(subscriptions)
      .set({ reminderSentFor: sql`${subscriptions.currentPeriodEnd}` })
      .where(
        and(
          eq(subscriptions.id, subscription.id),
          or(
            isNull(subscriptions.reminderSentFor),
            ne(subscriptions.reminderSentFor, subscriptions.currentPeriodEnd),
          ),
        ),
      )
      .returning({ id: subscriptions.id });
    if (!claimed) continue;
    const to = await recipient(app, subscription.userId);
    if (!to) continue;
    await sendBillingMail(app.mailer, to, 'billing_renewal_reminder', {
      planName: await planName(app.db, subscription.productId),
      amount: to.money(subscription.amount, subscription.currency),
      renewsOn: to.date(subscription.currentPeriodEnd),
      link: to.link('billing/membership-v2'),
    });
  }
}
