import type { InvoiceReason } from '../gateway.ts';
import type { Books } from './books.ts';
import { itemsAmount } from './customers-and-prices.ts';
import type {
  DiscountTerms,
  PendingPeriod,
  SandboxInvoice,
  SandboxInvoiceLine,
  SandboxSubscription,
  SubscriptionItem,
} from './sandbox-objects.ts';

/** What a discount takes off `subtotal`: a percentage (rounded half up) or an amount. */
export function discountOn(terms: DiscountTerms | null, subtotal: number): number {
  if (!terms || subtotal <= 0) return 0;
  if (terms.percentOff !== null) {
    const percent = Math.min(Math.max(terms.percentOff, 0), 100);
    return Math.min(subtotal, Math.round((subtotal * percent) / 100));
  }
  return Math.min(subtotal, Math.max(terms.amountOff ?? 0, 0));
}

/** One period's price of the items, after the discount in force for it. */
export function periodAmount(items: SubscriptionItem[], terms: DiscountTerms | null): number {
  const subtotal = itemsAmount(items);
  return subtotal - discountOn(terms, subtotal);
}

export function periodLines(
  items: SubscriptionItem[],
  start: string,
  end: string | null,
): SandboxInvoiceLine[] {
  return items.map((item) => ({
    description: item.name,
    price: item.price,
    productId: item.productId,
    quantity: item.quantity,
    unitAmount: item.amount,
    amount: item.amount * item.quantity,
    periodStart: start,
    periodEnd: end,
    proration: false,
  }));
}

/**
 * Spends one period of the subscription's discount: the terms for this invoice, and one
 * invoice fewer left (the code stops discounting when none are).
 */
export function takeDiscount(
  books: Books,
  subscription: SandboxSubscription,
): { code: string; terms: DiscountTerms } | null {
  const discount = subscription.discount;
  if (!discount) {
    books.change(subscription, { periodDiscount: null });
    return null;
  }
  const terms = { percentOff: discount.percentOff, amountOff: discount.amountOff };
  const periodsLeft = discount.periodsLeft === null ? null : discount.periodsLeft - 1;
  books.change(subscription, {
    periodDiscount: terms,
    discount: periodsLeft === 0 ? null : { ...discount, periodsLeft },
  });
  return { code: discount.code, terms };
}

export interface NewInvoice {
  subscription: SandboxSubscription;
  reason: InvoiceReason;
  lines: SandboxInvoiceLine[];
  discount: { code: string; terms: DiscountTerms } | null;
  periodStart: string | null;
  periodEnd: string | null;
  /** Told to us only once paid (a first invoice, a plan change's). */
  quiet: boolean;
  pendingItems?: SubscriptionItem[] | null;
  pendingPeriod?: PendingPeriod | null;
}

/** A finalized (open) invoice for the subscription, owed from now. */
export function openInvoice(books: Books, input: NewInvoice): SandboxInvoice {
  const { subscription } = input;
  const subtotal = input.lines.reduce((sum, line) => sum + line.amount, 0);
  const discount = discountOn(input.discount?.terms ?? null, subtotal);
  const invoice = books.create('invoice', {
    customer: subscription.customer,
    subscription: subscription.id,
    status: 'draft',
    reason: input.reason,
    currency: subscription.currency,
    lines: input.lines,
    subtotal,
    discount,
    tax: 0,
    // A credit larger than the charge is not paid out (shared/billing/pricing.ts prorate).
    total: Math.max(subtotal - discount, 0),
    amountPaid: 0,
    amountRefunded: 0,
    discountCode: input.discount?.code ?? null,
    periodStart: input.periodStart,
    periodEnd: input.periodEnd,
    attemptCount: 0,
    lastFailure: null,
    paidAt: null,
    latestPayment: null,
    quiet: input.quiet,
    pendingItems: input.pendingItems ?? null,
    pendingPeriod: input.pendingPeriod ?? null,
  });
  books.change(subscription, { latestInvoice: invoice.id });
  if (!invoice.quiet) books.emit('invoice.created', { subscription, invoice });
  books.change(invoice, { status: 'open' });
  if (!invoice.quiet) books.emit('invoice.finalized', { subscription, invoice });
  return invoice;
}
