import { and, sql } from 'drizzle-orm';
import { sandboxObjects } from '../../../db/schema/sandbox.ts';
import { type Books, inBooks } from './books.ts';
import { cardToCharge } from './cards.ts';
import { chargeInvoice } from './charges.ts';
import { openInvoice, periodLines, takeDiscount } from './invoices.ts';
import { lockSubscription } from './locks.ts';
import { periodEndAfter } from './periods.ts';
import type { SandboxContext } from './sandbox-context.ts';
import type { SandboxSubscription } from './sandbox-objects.ts';
import { settle } from './settlement.ts';

// The renewal sweep: what a processor does on its own as time passes. Run every minute by
// a durable schedule and at once whenever the test clock moves. Each subscription is
// renewed under its lock and looked at again once the lock is held, so two processes
// sweeping together renew it once.

export const RENEWALS_QUEUE = 'sandbox.renewals';

/** How long a first payment may wait for its confirmation (Stripe: 23 hours). */
const INCOMPLETE_TTL_MS = 23 * 60 * 60_000;

const currentPeriodEnd = sql`(${sandboxObjects.data}->>'currentPeriodEnd')::timestamptz`;
const status = sql`${sandboxObjects.data}->>'status'`;

export async function runRenewals(context: SandboxContext): Promise<void> {
  const now = context.clock.now();
  const due = await candidates(
    context,
    sql`${status} = 'active' and ${currentPeriodEnd} <= ${now.toISOString()}::timestamptz`,
  );
  for (const id of due) await eachOnItsOwn(context, id, (books) => renewSubscription(books, id));
  const stale = new Date(now.getTime() - INCOMPLETE_TTL_MS).toISOString();
  const waiting = await candidates(
    context,
    sql`${status} = 'incomplete' and ${sandboxObjects.data}->>'createdAt' <= ${stale}`,
  );
  for (const id of waiting) await eachOnItsOwn(context, id, (books) => expireIncomplete(books, id));
}

/** One subscription that cannot be renewed (a bug, bad data) must not hold up the others. */
async function eachOnItsOwn(
  context: SandboxContext,
  id: string,
  work: (books: Books) => Promise<void>,
): Promise<void> {
  try {
    await inBooks(context, work);
  } catch (error) {
    context.log.error({ err: error, subscription: id }, 'sandbox renewal failed');
  }
}

async function candidates(context: SandboxContext, where: ReturnType<typeof sql>) {
  const rows = await context.db
    .select({ id: sandboxObjects.id })
    .from(sandboxObjects)
    .where(and(sql`${sandboxObjects.kind} = 'subscription'`, where))
    .orderBy(sandboxObjects.id);
  return rows.map((row) => row.id);
}

async function renewSubscription(books: Books, id: string): Promise<void> {
  const { subscription } = await lockSubscription(books, id);
  await renewDue(books, subscription);
}

/**
 * Ends or renews each period of `subscription` that has ended by now: an ending one
 * (canceled at period end, one-time) ends; otherwise the next period is invoiced and charged
 * off-session to its card. A paid renewal moves the period on (and the loop catches up a
 * long test-clock jump period by period); a refused one leaves it past due, for our dunning
 * to retry through payInvoice. A paused subscription is not looked at: its period stays.
 */
export async function renewDue(books: Books, subscription: SandboxSubscription): Promise<void> {
  const now = books.now().getTime();
  while (
    subscription.status === 'active' &&
    subscription.currentPeriodEnd !== null &&
    Date.parse(subscription.currentPeriodEnd) <= now
  ) {
    const start = subscription.currentPeriodEnd;
    if (subscription.cancelAtPeriodEnd || subscription.onetime || !subscription.interval) {
      books.change(subscription, { status: 'ended', endedAt: start, endReason: 'period_end' });
      books.emit('customer.subscription.deleted', { subscription });
      return;
    }
    const end = periodEndAfter(
      new Date(subscription.cycleAnchor),
      new Date(start),
      subscription.interval,
      subscription.intervalCount,
    ).toISOString();
    const invoice = openInvoice(books, {
      subscription,
      reason: 'subscription_cycle',
      lines: periodLines(subscription.items, start, end),
      discount: takeDiscount(books, subscription),
      periodStart: start,
      periodEnd: end,
      quiet: false,
    });
    const card = await cardToCharge(books, subscription);
    const result = chargeInvoice(books, invoice, card, { offSession: true, returnUrl: null });
    await settle(books, invoice, result);
  }
}

/** A first payment never confirmed: the purchase lapses, as a declined one would. */
async function expireIncomplete(books: Books, id: string): Promise<void> {
  const { subscription } = await lockSubscription(books, id);
  if (subscription.status !== 'incomplete' || !subscription.latestInvoice) return;
  const invoice = await books.get('invoice', subscription.latestInvoice, { lock: true });
  const payment = invoice.latestPayment
    ? await books.get('payment', invoice.latestPayment, { lock: true })
    : null;
  if (payment?.status === 'requires_action') {
    books.change(payment, {
      status: 'failed',
      failureCode: 'authentication_failed',
      failureMessage: 'The payment was never confirmed.',
    });
  }
  await settle(books, invoice, {
    kind: 'declined',
    decline: { code: 'expired', message: '' },
    payment,
  });
}
