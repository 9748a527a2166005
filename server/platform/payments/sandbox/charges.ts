import type { GatewayDecline } from '../gateway.ts';
import type { Books } from './books.ts';
import type { SandboxCard, SandboxInvoice, SandboxPayment } from './sandbox-objects.ts';
import { chargeAnswer, decline } from './test-cards.ts';

// Charging an invoice to a card: the payment object and the invoice's payment state. What
// that means for the subscription is settlement.ts's part.

export type ChargeResult =
  | { kind: 'paid'; payment: SandboxPayment | null }
  | { kind: 'requires_action'; payment: SandboxPayment }
  | { kind: 'declined'; decline: GatewayDecline; payment: SandboxPayment | null };

export interface ChargeOptions {
  /** A renewal, with no customer present to pass 3-D Secure. */
  offSession: boolean;
  /** Where the confirmation page sends the customer back. */
  returnUrl: string | null;
}

export function chargeInvoice(
  books: Books,
  invoice: SandboxInvoice,
  card: SandboxCard | null,
  options: ChargeOptions,
): ChargeResult {
  if (invoice.total === 0) {
    markPaid(books, invoice, null);
    return { kind: 'paid', payment: null };
  }
  if (!card) {
    const refused = decline('payment_method_required');
    markFailed(books, invoice, refused);
    return { kind: 'declined', decline: refused, payment: null };
  }
  const payment = books.create('payment', {
    invoice: invoice.id,
    customer: invoice.customer,
    status: 'pending',
    amount: invoice.total,
    amountRefunded: 0,
    currency: invoice.currency,
    card: card.id,
    offSession: options.offSession,
    failureCode: null,
    failureMessage: null,
    returnUrl: null,
  });
  books.change(invoice, { latestPayment: payment.id });
  const answer = chargeAnswer(card, books.now(), options.offSession);
  if (answer.kind === 'succeeded') {
    books.change(payment, { status: 'succeeded' });
    markPaid(books, invoice, payment);
    return { kind: 'paid', payment };
  }
  if (answer.kind === 'requires_action') {
    books.change(payment, { status: 'requires_action', returnUrl: options.returnUrl });
    return { kind: 'requires_action', payment };
  }
  books.change(payment, {
    status: 'failed',
    failureCode: answer.decline.code,
    failureMessage: answer.decline.message,
  });
  markFailed(books, invoice, answer.decline);
  return { kind: 'declined', decline: answer.decline, payment };
}

/** The confirmation page's answer to a payment waiting for 3-D Secure. */
export function authenticate(
  books: Books,
  invoice: SandboxInvoice,
  payment: SandboxPayment,
  completed: boolean,
): ChargeResult {
  if (completed) {
    books.change(payment, { status: 'succeeded' });
    markPaid(books, invoice, payment);
    return { kind: 'paid', payment };
  }
  const refused = decline('authentication_failed');
  books.change(payment, {
    status: 'failed',
    failureCode: refused.code,
    failureMessage: refused.message,
  });
  markFailed(books, invoice, refused);
  return { kind: 'declined', decline: refused, payment };
}

function markPaid(books: Books, invoice: SandboxInvoice, payment: SandboxPayment | null): void {
  books.change(invoice, {
    status: 'paid',
    amountPaid: invoice.total,
    paidAt: books.now().toISOString(),
    attemptCount: invoice.attemptCount + (payment ? 1 : 0),
    lastFailure: null,
  });
}

function markFailed(books: Books, invoice: SandboxInvoice, refused: GatewayDecline): void {
  books.change(invoice, { attemptCount: invoice.attemptCount + 1, lastFailure: refused.code });
}
