import { describe, expect, it } from 'vitest';
import type { CryptomusInvoice } from './cryptomus-objects.ts';
import { snapshotsOf } from './cryptomus-snapshots.ts';

// One invoice through the states it can take once paid: its period never moves.

const NOTE = JSON.stringify({ u: '7', k: 'new', i: 'month', n: 1, d: null, l: [[61, 1299, 'M']] });
const paid: CryptomusInvoice = {
  uuid: '6f1c2b4e-0000-4000-8000-000000000001',
  order_id: 'order-7-1',
  amount: '12.99',
  currency: 'USD',
  status: 'paid',
  is_final: true,
  additional_data: NOTE,
  // Made at 10:00, paid 40 minutes later (Moscow time, as Cryptomus writes it).
  created_at: '2026-11-01T13:00:00+03:00',
  updated_at: '2026-11-01T13:40:00+03:00',
};
const NOW = new Date('2026-11-05T00:00:00Z');

describe('a Cryptomus period once paid', () => {
  it('stays where it was when a refund is asked for, and when it fails', () => {
    const before = snapshotsOf(paid, NOW)?.subscription;
    expect(before?.status).toBe('active');
    for (const status of ['refund_process', 'refund_fail']) {
      // A refund attempt is a later change: Cryptomus moves updated_at.
      const later = { ...paid, status, updated_at: '2026-11-03T09:00:00+03:00' };
      const snapshots = snapshotsOf(later, NOW);
      expect(snapshots?.subscription, status).toMatchObject({
        status: 'active',
        currentPeriodStart: before?.currentPeriodStart,
        currentPeriodEnd: before?.currentPeriodEnd,
      });
      expect(snapshots?.invoice, status).toMatchObject({
        status: 'paid',
        periodStart: before?.currentPeriodStart,
        periodEnd: before?.currentPeriodEnd,
        paidAt: before?.currentPeriodStart,
      });
    }
  });

  it('is anchored at the invoice’s creation, whatever changed after', () => {
    const subscription = snapshotsOf(paid, NOW)?.subscription;
    expect(subscription?.currentPeriodStart).toEqual(new Date('2026-11-01T10:00:00Z'));
    expect(subscription?.currentPeriodEnd).toEqual(new Date('2026-12-01T10:00:00Z'));
    const refunded = { ...paid, status: 'refund_paid', updated_at: '2026-11-04T09:00:00+03:00' };
    expect(snapshotsOf(refunded, NOW)?.subscription).toMatchObject({
      status: 'refunded',
      currentPeriodStart: subscription?.currentPeriodStart,
      endedAt: new Date('2026-11-04T06:00:00Z'),
    });
  });

  it('names its paying invoice as the subscription’s latest, for reconciliation', () => {
    const snapshots = snapshotsOf(paid, NOW);
    expect(snapshots?.subscription?.latestInvoiceRef).toBe(paid.uuid);
    expect(snapshots?.subscription?.latestInvoiceRef).toBe(snapshots?.invoice.ref);
  });
});
