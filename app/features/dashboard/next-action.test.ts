import { describe, expect, it } from 'vitest';
import type { SubscriptionValue } from '#shared/subscription/actions.ts';
import { nextAction } from './next-action.ts';

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
