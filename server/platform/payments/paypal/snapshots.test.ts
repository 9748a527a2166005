import type {
  BillingPlan,
  Subscription,
  SubscriptionTransactionDetails,
} from '@paypal/paypal-server-sdk';
import { describe, expect, it } from 'vitest';
import { invoiceSnapshot, type SubscriptionRead, subscriptionSnapshot } from './snapshots.ts';

// PayPal's payments as our invoices, read by read: the later read stands, refunds PayPal
// recorded are never undone, and the subscription names its latest payment.

const PLAN = {
  id: 'P-PLAN',
  name: 'VPN 1 month',
  billingCycles: [
    {
      tenureType: 'REGULAR',
      sequence: 1,
      totalCycles: 0,
      frequency: { intervalUnit: 'MONTH', intervalCount: 1 },
      pricingScheme: { fixedPrice: { currencyCode: 'USD', value: '12.99' } },
    },
  ],
} as unknown as BillingPlan;

const PAID_AT = '2026-11-01T10:00:00Z';
const sale = (status: string, id = 'SALE-1', time = PAID_AT) =>
  ({
    id,
    status,
    time,
    amountWithBreakdown: { grossAmount: { currencyCode: 'USD', value: '12.99' } },
  }) as unknown as SubscriptionTransactionDetails;

function readOf(transactions: SubscriptionTransactionDetails[], readAt: Date): SubscriptionRead {
  const subscription = {
    id: 'I-SUB',
    planId: 'P-PLAN',
    status: 'ACTIVE',
    customId: '7',
    startTime: '2026-11-01T09:59:00Z',
    statusUpdateTime: '2026-11-01T10:00:00Z',
    billingInfo: {
      lastPayment: { time: transactions.at(-1)?.time },
      nextBillingTime: '2026-12-01T10:00:00Z',
      failedPaymentsCount: 0,
    },
  } as unknown as Subscription;
  return { subscription, plans: new Map([['P-PLAN', PLAN]]), transactions, readAt };
}

describe('a PayPal payment as our invoice', () => {
  it('is stamped with the time of our read, so a later read wins over an earlier one', () => {
    const pendingRead = readOf([sale('PENDING')], new Date('2026-11-01T10:00:05Z'));
    const completedRead = readOf([sale('COMPLETED')], new Date('2026-11-01T10:00:09Z'));
    const pending = invoiceSnapshot(pendingRead, 'SALE-1');
    const completed = invoiceSnapshot(completedRead, 'SALE-1');
    expect(pending).toMatchObject({ status: 'open', updatedAt: pendingRead.readAt });
    expect(completed).toMatchObject({ status: 'paid', updatedAt: completedRead.readAt });
    // The PENDING read, applied after the COMPLETED one, is older: it cannot reopen it.
    expect((pending?.updatedAt as Date) < (completed?.updatedAt as Date)).toBe(true);
    // The period is still the payment's own.
    expect(completed?.periodStart).toEqual(new Date(PAID_AT));
  });

  it('keeps what PayPal recorded as refunded when the list only says PARTIALLY_REFUNDED', () => {
    const read = readOf([sale('PARTIALLY_REFUNDED')], new Date('2026-11-02T00:00:00Z'));
    expect(invoiceSnapshot(read, 'SALE-1', 300)).toMatchObject({
      amountPaid: 1299,
      amountRefunded: 300,
      updatedAt: read.readAt,
    });
    const refunded = readOf([sale('REFUNDED')], new Date('2026-11-03T00:00:00Z'));
    expect(invoiceSnapshot(refunded, 'SALE-1', 300)?.amountRefunded).toBe(1299);
    expect(invoiceSnapshot(refunded, 'SALE-1')?.amountRefunded).toBe(1299);
    // Never more than was paid.
    expect(invoiceSnapshot(read, 'SALE-1', 5000)?.amountRefunded).toBe(1299);
  });
});

describe('a PayPal subscription snapshot', () => {
  it('names its latest payment as its latest invoice', () => {
    const read = readOf(
      [sale('COMPLETED', 'SALE-2', '2026-12-01T10:00:00Z'), sale('COMPLETED')],
      new Date('2026-12-01T10:00:05Z'),
    );
    const subscription = subscriptionSnapshot(read);
    expect(subscription?.latestInvoiceRef).toBe('SALE-2');
    expect(invoiceSnapshot(read, 'SALE-2')?.ref).toBe('SALE-2');
  });

  it('names none when its read saw no payment', () => {
    expect(subscriptionSnapshot(readOf([], new Date()))?.latestInvoiceRef).toBeUndefined();
  });
});
