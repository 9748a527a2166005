import { inBooks } from './books.ts';
import { authenticate } from './charges.ts';
import { lockPayment } from './locks.ts';
import type { SandboxContext } from './sandbox-context.ts';
import type { SandboxPayment } from './sandbox-objects.ts';
import { settle } from './settlement.ts';

// The confirmation step standing in for 3-D Secure: a charge to a card that wants it waits
// (`requires_action`) until the customer completes or fails it on our confirmation page,
// which then sends them back to the return URL the purchase named.

export const CONFIRMATION_PATH = '/sandbox/v1/authenticate';

export function confirmationUrl(appUrl: string, paymentId: string): string {
  return `${appUrl}${CONFIRMATION_PATH}/${paymentId}`;
}

export type PaymentOutcome = 'succeeded' | 'failed';

/**
 * Where the customer goes back to, with the payment and its outcome in the query; null for
 * a URL of another origin (`//evil.example` and `/\evil.example` included), which we never
 * redirect to.
 */
export function returnTarget(
  appUrl: string,
  returnUrl: string,
  paymentId: string,
  outcome: PaymentOutcome,
): string | null {
  const base = new URL(appUrl);
  let target: URL;
  try {
    target = new URL(returnUrl, base);
  } catch {
    return null;
  }
  if (target.origin !== base.origin) return null;
  target.searchParams.set('sandbox_payment', paymentId);
  target.searchParams.set('outcome', outcome);
  return returnUrl.startsWith('/')
    ? `${target.pathname}${target.search}${target.hash}`
    : target.href;
}

export function outcomeOf(payment: SandboxPayment): PaymentOutcome | null {
  if (payment.status === 'succeeded') return 'succeeded';
  if (payment.status === 'failed') return 'failed';
  return null;
}

/**
 * Completes or fails a payment waiting for confirmation; a payment already settled stays as
 * it is (a second submit of the page's form changes nothing).
 */
export function confirmPayment(
  context: SandboxContext,
  paymentId: string,
  completed: boolean,
): Promise<SandboxPayment> {
  return inBooks(context, async (books) => {
    const { invoice, payment } = await lockPayment(books, paymentId);
    if (payment.status !== 'requires_action') return payment;
    // An invoice settled meanwhile (voided with its subscription) can no longer be paid.
    const open = invoice.status === 'open';
    const result = authenticate(books, invoice, payment, completed && open);
    if (open) await settle(books, invoice, result);
    return payment;
  });
}
