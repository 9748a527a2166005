import { describe, expect, it } from 'vitest';
import type { AppStoreTransaction } from './signed-data.ts';
import {
  minorUnits,
  ourStatus,
  type SubscriptionState,
  subscriptionSnapshot,
  transactionSnapshots,
} from './snapshots.ts';

// The App Store's words in ours: statuses, milliunit prices, refunds.

const NOW = new Date('2026-11-25T10:00:00Z');
const transaction: AppStoreTransaction = {
  transactionId: '2000000000000002',
  originalTransactionId: '2000000000000001',
  productId: 'com.shieldline.vpn.monthly',
  purchaseDate: Date.parse('2026-11-01T00:00:00Z'),
  expiresDate: Date.parse('2026-12-01T00:00:00Z'),
  type: 'Auto-Renewable Subscription',
  appAccountToken: 'A1B2C3D4-0000-4000-8000-000000000001',
  transactionReason: 'RENEWAL',
  price: 12_990,
  currency: 'USD',
};
const state = (status: number, autoRenewStatus = 1, extra: Partial<AppStoreTransaction> = {}) =>
  ({
    status,
    transaction: { ...transaction, ...extra },
    renewal: { autoRenewStatus },
  }) satisfies SubscriptionState;

describe('App Store statuses in §4 terms', () => {
  it('maps each status, auto-renew off while active meaning canceled at period end', () => {
    expect(ourStatus(state(1))).toBe('active');
    expect(ourStatus(state(1, 0))).toBe('canceled');
    expect(ourStatus(state(2))).toBe('expired');
    expect(ourStatus(state(3))).toBe('on_hold');
    expect(ourStatus(state(4))).toBe('on_hold');
    expect(ourStatus(state(5))).toBe('refunded');
    expect(ourStatus(state(2, 0, { revocationDate: NOW.getTime() }))).toBe('refunded');
  });

  it('builds the subscription named by its original transaction, owned by the token', () => {
    const canceled = subscriptionSnapshot(state(1, 0), NOW);
    expect(canceled).toMatchObject({
      ref: '2000000000000001',
      customerRef: 'a1b2c3d4-0000-4000-8000-000000000001',
      status: 'canceled',
      cancelAtPeriodEnd: true,
      paymentMethodType: 'in_app',
      items: [{ priceRef: 'com.shieldline.vpn.monthly', productId: null, amount: 1299 }],
      currentPeriodEnd: new Date('2026-12-01T00:00:00Z'),
      endedAt: null,
      updatedAt: NOW,
    });
    const expired = subscriptionSnapshot(state(2, 0), NOW);
    expect(expired).toMatchObject({
      cancelAtPeriodEnd: false,
      endedAt: new Date(transaction.expiresDate ?? 0),
    });
  });

  it('names its latest transaction as the latest invoice, for reconciliation', () => {
    const snapshot = subscriptionSnapshot(state(1), NOW);
    expect(snapshot.latestInvoiceRef).toBe('2000000000000002');
    expect(snapshot.latestInvoiceRef).toBe(transactionSnapshots(transaction, NOW).invoice.ref);
  });
});

describe('transactions as invoices', () => {
  it('converts milliunits to each currency’s minor units', () => {
    expect(minorUnits(9_990, 'USD')).toBe(999);
    expect(minorUnits(1_200_000, 'JPY')).toBe(1200);
    expect(minorUnits(1_250, 'KWD')).toBe(1250);
    expect(minorUnits(0, 'EUR')).toBe(0);
  });

  it('makes a paid invoice and its payment, and a refund once revoked (prorated too)', () => {
    const paid = transactionSnapshots(transaction, NOW);
    expect(paid.invoice).toMatchObject({
      ref: '2000000000000002',
      subscriptionRef: '2000000000000001',
      status: 'paid',
      reason: 'subscription_cycle',
      total: 1299,
      amountPaid: 1299,
      amountRefunded: 0,
    });
    expect(paid.payment).toMatchObject({
      status: 'succeeded',
      amount: 1299,
      invoiceRef: '2000000000000002',
    });
    expect(paid.refund).toBeUndefined();
    const revokedAt = Date.parse('2026-11-20T00:00:00Z');
    const whole = transactionSnapshots({ ...transaction, revocationDate: revokedAt }, NOW);
    expect(whole.invoice.amountRefunded).toBe(1299);
    expect(whole.refund).toMatchObject({
      amount: 1299,
      paymentRef: '2000000000000002',
      createdAt: new Date(revokedAt),
    });
    const half = transactionSnapshots(
      { ...transaction, revocationDate: revokedAt, revocationPercentage: 50_000 },
      NOW,
    );
    expect(half.refund?.amount).toBe(650);
    const first = transactionSnapshots(
      { ...transaction, transactionId: '2000000000000001', transactionReason: 'PURCHASE' },
      NOW,
    );
    expect(first.invoice.reason).toBe('subscription_create');
  });
});
