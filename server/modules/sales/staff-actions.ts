import type { AdminSubscription } from '#shared/contracts/admin/subscriptions.ts';
import type { SubscriptionStatus } from '#shared/subscription/actions.ts';
import { lifecycleActions } from '#shared/subscription/lifecycle.ts';
import type { SubscriptionRow } from '../../db/schema/index.ts';

// What staff may ask of a subscription's gateway. Cancel at period end and resume follow the
// customer's own rules (shared/subscription/lifecycle.ts: no resume after a PayPal cancel,
// nothing to stop on a one-time plan). Ending one now is a recurring plan's that still runs;
// a one-time plan (crypto, a one-time card purchase) is ended early only by refunding it.
// App Store purchases are Apple's to cancel and refund, bonus days cost nothing.

const RUNNING: readonly SubscriptionStatus[] = ['active', 'canceled', 'paused', 'on_hold'];
const STAFF_MANAGED = new Set(['sandbox', 'stripe', 'paypal', 'cryptomus']);

export function staffActions(
  row: Pick<
    SubscriptionRow,
    'status' | 'onetime' | 'cancelAtPeriodEnd' | 'paymentMethodType' | 'gateway'
  >,
  refundable: number,
): AdminSubscription['actions'] {
  if (!STAFF_MANAGED.has(row.gateway)) {
    return { cancel_now: false, cancel_at_period_end: false, resume: false, refund: false };
  }
  const lifecycle = lifecycleActions(row);
  return {
    cancel_now: !row.onetime && RUNNING.includes(row.status),
    cancel_at_period_end: lifecycle.cancel,
    resume: lifecycle.resume,
    refund: refundable > 0,
  };
}

/** Whether invoices of this gateway can be refunded by staff here. */
export function staffRefunds(gateway: string): boolean {
  return STAFF_MANAGED.has(gateway);
}
