import { describe, expect, it } from 'vitest';
import type { SubscriptionValue } from '#shared/subscription/actions.ts';
import { nextAction, planDate } from './next-action.ts';

const card = (status: SubscriptionValue['status'], more: Partial<SubscriptionValue> = {}) =>
  ({ status, service_id: 1, onetime: false, ...more }) as SubscriptionValue;

describe('the next action of the subscription card (§4)', () => {
  it('orders when there is no subscription', () => {
    expect(nextAction(null, false)).toBe('order');
    expect(nextAction({ ...card('active'), exists: false }, false)).toBe('order');
  });

  it('fixes the payment first, then reactivates, then upgrades', () => {
    expect(nextAction(card('on_hold'), false)).toBe('fix_payment_method');
    expect(nextAction(card('failed'), false)).toBe('fix_payment_method');
    expect(nextAction(card('expired'), false)).toBe('reactivate');
    expect(nextAction(card('refunded'), false)).toBe('reactivate');
    expect(nextAction(card('active'), false)).toBe('upgrade');
    expect(nextAction(card('canceled'), false)).toBe('upgrade');
    expect(nextAction(card('active', { service_id: 5 }), false)).toBe('bonus_upgrade');
  });

  it('offers nothing where the membership page offers nothing', () => {
    // An invoice being finalised holds the upgrade back.
    expect(nextAction(card('active'), true)).toBeNull();
    expect(nextAction(card('paused', { service_id: 6 }), false)).toBeNull();
  });
});

describe('the date beside the status', () => {
  const base = {
    service_id: 1 as const,
    onetime: false,
    cancel_at_period_end: false,
    current_period_end: '2026-12-01T00:00:00.000Z',
    grace_until: null,
    ended_at: null,
  };
  it('renews, ends, or ended as the plan stands', () => {
    expect(planDate({ ...base, status: 'active' }).kind).toBe('renews');
    expect(planDate({ ...base, status: 'active', cancel_at_period_end: true }).kind).toBe('ends');
    expect(planDate({ ...base, status: 'canceled' }).kind).toBe('ends');
    // Bonus days are never charged: they end.
    expect(planDate({ ...base, status: 'active', service_id: 5 }).kind).toBe('ends');
    expect(planDate({ ...base, status: 'expired' }).kind).toBe('ended');
    expect(planDate({ ...base, status: 'refunded' })).toEqual({ kind: 'none' });
    expect(
      planDate({ ...base, status: 'on_hold', grace_until: '2026-12-08T00:00:00.000Z' }),
    ).toEqual({ kind: 'access_until', date: '2026-12-08T00:00:00.000Z' });
  });
});
