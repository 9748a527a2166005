import { describe, expect, it } from 'vitest';
import type { SubscriptionDetail } from '#shared/contracts/billing.ts';
import { periodLine } from '#shared/subscription/period-line.ts';
import { lifecycleActions } from './lifecycle-actions.ts';

type Case = Pick<SubscriptionDetail, 'status' | 'onetime' | 'cancel_at_period_end'> & {
  payment_method: { type: SubscriptionDetail['payment_method']['type'] };
};
const base: Case = {
  status: 'active',
  onetime: false,
  cancel_at_period_end: false,
  payment_method: { type: 'card' },
};

describe('membership lifecycle actions', () => {
  it.each<[string, Partial<Case>, string[]]>([
    ['active on card', {}, ['cancel', 'pause']],
    ['active on PayPal', { payment_method: { type: 'paypal' } }, ['cancel', 'pause']],
    ['active on crypto, recurring', { payment_method: { type: 'crypto' } }, ['cancel']],
    ['active on card, set to cancel', { cancel_at_period_end: true }, ['resume']],
    ['canceled on card', { status: 'canceled', cancel_at_period_end: true }, ['resume']],
    [
      'canceled on PayPal',
      { status: 'canceled', cancel_at_period_end: true, payment_method: { type: 'paypal' } },
      [],
    ],
    ['paused on card', { status: 'paused' }, ['continue']],
    ['active, one-time', { onetime: true }, []],
    ['on hold', { status: 'on_hold' }, []],
    ['failed', { status: 'failed' }, []],
    ['expired', { status: 'expired' }, []],
    ['refunded', { status: 'refunded' }, []],
  ])('%s offers %j', (_, overrides, expected) => {
    const actions = lifecycleActions({ ...base, ...overrides });
    const offered = Object.entries(actions)
      .filter(([, on]) => on)
      .map(([name]) => name);
    expect(offered).toEqual(expected);
  });

  it('offers nothing for a subscription that does not exist', () => {
    expect(Object.values(lifecycleActions({ ...base, exists: false })).some(Boolean)).toBe(false);
  });
});

describe('membership period line', () => {
  const end = '2026-12-01T00:00:00.000Z';
  const dates = {
    current_period_end: end,
    grace_until: '2026-12-08T00:00:00.000Z',
    ended_at: '2026-11-20T00:00:00.000Z',
    paused_at: '2026-11-10T00:00:00.000Z',
  };
  it.each<[string, Partial<SubscriptionDetail>, ReturnType<typeof periodLine>]>([
    ['active renews', { status: 'active' }, { kind: 'renews', date: end }],
    [
      'set to cancel ends',
      { status: 'active', cancel_at_period_end: true },
      { kind: 'ends', date: end },
    ],
    ['one-time ends', { status: 'active', onetime: true }, { kind: 'ends', date: end }],
    ['canceled ends', { status: 'canceled' }, { kind: 'ends', date: end }],
    [
      'on hold until the grace end',
      { status: 'on_hold' },
      { kind: 'access_until', date: dates.grace_until },
    ],
    ['expired ended', { status: 'expired' }, { kind: 'ended', date: dates.ended_at }],
    [
      'expired without an end uses the period',
      { status: 'expired', ended_at: null },
      { kind: 'ended', date: end },
    ],
    ['paused until the period end', { status: 'paused' }, { kind: 'paused', date: end }],
    ['no period: nothing', { status: 'active', current_period_end: null }, { kind: 'none' }],
  ])('%s', (_, overrides, expected) => {
    expect(
      periodLine({
        service_id: 1,
        onetime: false,
        cancel_at_period_end: false,
        ...dates,
        status: 'active',
        ...overrides,
      }),
    ).toEqual(expected);
  });
});
