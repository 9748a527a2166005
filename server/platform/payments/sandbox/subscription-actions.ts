import { sql } from 'drizzle-orm';
import { sandboxObjects } from '../../../db/schema/sandbox.ts';
import type { GatewaySubscription } from '../gateway.ts';
import { type Books, inBooks } from './books.ts';
import { lockSubscription } from './locks.ts';
import { renewDue } from './renewals.ts';
import type { SandboxContext } from './sandbox-context.ts';
import { SandboxRequestError } from './sandbox-errors.ts';
import type { SandboxInvoice, SandboxSubscription } from './sandbox-objects.ts';
import { subscriptionSnapshot } from './snapshots.ts';

// The customer's and staff's actions on a running subscription. Each answers the
// subscription as it stands after, and asking for what already holds changes nothing.

type Status = SandboxSubscription['status'];

const ENDED: readonly Status[] = ['ended', 'unpaid', 'incomplete_expired'];

function refuse(subscription: SandboxSubscription, action: string): never {
  throw new SandboxRequestError(
    'invalid_state',
    `Cannot ${action} subscription ${subscription.id}: it is ${subscription.status}`,
  );
}

function act(
  context: SandboxContext,
  ref: string,
  work: (books: Books, subscription: SandboxSubscription) => Promise<void> | void,
): Promise<GatewaySubscription> {
  return inBooks(context, async (books) => {
    const { subscription } = await lockSubscription(books, ref);
    await work(books, subscription);
    return subscriptionSnapshot(subscription);
  });
}

/** Refunded (§4) = ended at once with its latest paid invoice given back in full. */
export function fullyRefunded(invoice: SandboxInvoice | null): boolean {
  return invoice !== null && invoice.amountPaid > 0 && invoice.amountRefunded >= invoice.amountPaid;
}

async function openInvoicesOf(books: Books, subscription: SandboxSubscription) {
  return books.select(
    'invoice',
    sql`${sandboxObjects.data}->>'subscription' = ${subscription.id} and ${sandboxObjects.data}->>'status' = 'open'`,
    { lock: true },
  );
}

export function cancel(
  context: SandboxContext,
  ref: string,
  options: { atPeriodEnd: boolean },
): Promise<GatewaySubscription> {
  return act(context, ref, async (books, subscription) => {
    if (ENDED.includes(subscription.status)) return;
    if (subscription.status === 'incomplete') refuse(subscription, 'cancel');
    const now = books.now().toISOString();
    // A past-due subscription's period is over already: ending it "at period end" is now.
    if (options.atPeriodEnd && subscription.status !== 'past_due') {
      if (subscription.cancelAtPeriodEnd) return;
      books.change(subscription, { cancelAtPeriodEnd: true, canceledAt: now });
      books.emit('customer.subscription.updated', { subscription });
      return;
    }
    for (const invoice of await openInvoicesOf(books, subscription)) {
      books.change(invoice, { status: 'void' });
      if (!invoice.quiet) books.emit('invoice.voided', { subscription, invoice });
    }
    const latestPaid = subscription.latestPaidInvoice
      ? await books.find('invoice', subscription.latestPaidInvoice)
      : null;
    books.change(subscription, {
      status: 'ended',
      cancelAtPeriodEnd: false,
      canceledAt: now,
      endedAt: now,
      endReason: 'canceled',
      refunded: fullyRefunded(latestPaid),
    });
    books.emit('customer.subscription.deleted', { subscription });
  });
}

/** Undoes a cancel at period end. */
export function resume(context: SandboxContext, ref: string): Promise<GatewaySubscription> {
  return act(context, ref, (books, subscription) => {
    if (!subscription.cancelAtPeriodEnd) return;
    if (ENDED.includes(subscription.status)) refuse(subscription, 'resume');
    books.change(subscription, { cancelAtPeriodEnd: false, canceledAt: null });
    books.emit('customer.subscription.updated', { subscription });
  });
}

/** Paused: the period it paid for runs out, then nothing renews until it is unpaused. */
export function pause(context: SandboxContext, ref: string): Promise<GatewaySubscription> {
  return act(context, ref, (books, subscription) => {
    if (subscription.status === 'paused') return;
    if (subscription.status !== 'active' || subscription.onetime) refuse(subscription, 'pause');
    books.change(subscription, { status: 'paused', pausedAt: books.now().toISOString() });
    books.emit('customer.subscription.updated', { subscription });
  });
}

/**
 * Active again. A period that ended while paused is not billed after the fact: a fresh one
 * starts now and is charged at once, like a renewal.
 */
export function unpause(context: SandboxContext, ref: string): Promise<GatewaySubscription> {
  return act(context, ref, async (books, subscription) => {
    if (subscription.status !== 'paused') return;
    const now = books.now().toISOString();
    const lapsed = subscription.currentPeriodEnd !== null && subscription.currentPeriodEnd <= now;
    books.change(subscription, {
      status: 'active',
      pausedAt: null,
      ...(lapsed ? { cycleAnchor: now, currentPeriodEnd: now } : {}),
    });
    books.emit('customer.subscription.updated', { subscription });
    if (lapsed) await renewDue(books, subscription);
  });
}

/** Our dunning gave up: the subscription fails (§4) and what it owes is written off. */
export function endForNonPayment(
  context: SandboxContext,
  ref: string,
): Promise<GatewaySubscription> {
  return act(context, ref, async (books, subscription) => {
    if (subscription.status === 'unpaid') return;
    if (subscription.status !== 'past_due') refuse(subscription, 'end for non-payment');
    for (const invoice of await openInvoicesOf(books, subscription)) {
      books.change(invoice, { status: 'uncollectible' });
      if (!invoice.quiet) books.emit('invoice.marked_uncollectible', { subscription, invoice });
    }
    const now = books.now().toISOString();
    books.change(subscription, { status: 'unpaid', endedAt: now, endReason: 'non_payment' });
    books.emit('customer.subscription.deleted', { subscription });
  });
}
