import type { GatewayDecline, PayOutcome } from '../gateway.ts';
import { type Books, inBooks } from './books.ts';
import { attachedCard, cardToCharge } from './cards.ts';
import { chargeInvoice } from './charges.ts';
import { confirmationUrl } from './confirmation.ts';
import { lockInvoice } from './locks.ts';
import type { SandboxContext } from './sandbox-context.ts';
import { SandboxRequestError } from './sandbox-errors.ts';
import type { SandboxInvoice } from './sandbox-objects.ts';
import { settle } from './settlement.ts';
import { invoiceSnapshot } from './snapshots.ts';

// Collecting an open invoice now, on our request: our dunning's retries, and the customer
// fixing their payment method. Paid, a past-due subscription is active again from now.

type StoredPay =
  | { kind: 'paid'; invoice: SandboxInvoice }
  | { kind: 'redirect'; url: string }
  | { kind: 'declined'; decline: GatewayDecline; invoice: SandboxInvoice };

function answer(stored: StoredPay): PayOutcome {
  if (stored.kind === 'redirect') return stored;
  return { ...stored, invoice: invoiceSnapshot(stored.invoice) };
}

export function payInvoice(
  context: SandboxContext,
  invoiceRef: string,
  options: { paymentMethodRef?: string | null; idempotencyKey: string },
): Promise<PayOutcome> {
  return inBooks(context, async (books) => {
    const record = await books.claimIdempotencyKey(options.idempotencyKey, 'pay_invoice');
    if (record.outcome) return answer(record.outcome as StoredPay);
    const stored = await pay(context, books, invoiceRef, options.paymentMethodRef ?? null);
    books.change(record, { outcome: structuredClone(stored) });
    return answer(stored);
  });
}

async function pay(
  context: SandboxContext,
  books: Books,
  invoiceRef: string,
  cardRef: string | null,
): Promise<StoredPay> {
  const { customer, subscription, invoice } = await lockInvoice(books, invoiceRef);
  if (invoice.status === 'paid') return { kind: 'paid', invoice };
  if (invoice.status !== 'open' || !subscription) {
    throw new SandboxRequestError('invalid_state', `Invoice ${invoice.id} is ${invoice.status}`);
  }
  const card = cardRef
    ? await attachedCard(books, customer.id, cardRef)
    : await cardToCharge(books, subscription);
  const result = chargeInvoice(books, invoice, card, {
    offSession: false,
    returnUrl: subscription.returnUrl,
  });
  await settle(books, invoice, result);
  if (result.kind === 'paid') return { kind: 'paid', invoice };
  if (result.kind === 'requires_action') {
    return { kind: 'redirect', url: confirmationUrl(context.appUrl, result.payment.id) };
  }
  return { kind: 'declined', decline: result.decline, invoice };
}
