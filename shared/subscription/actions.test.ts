import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { subscriptionValueSchema } from '../contracts/current-subscription.ts';
import {
  accountActions,
  canBonusUpgrade,
  canFixPaymentMethod,
  canReactivate,
  canUpgrade,
  hasMembership,
  isServiceId,
  SERVICE_ID_LIST,
  type ServiceId,
  SUBSCRIPTION_STATUSES,
  type SubscriptionStatus,
  type SubscriptionValue,
} from './actions.ts';

const sub = (
  status: SubscriptionStatus,
  service_id: ServiceId,
  onetime = false,
  exists?: boolean,
): SubscriptionValue =>
  exists === undefined ? { status, service_id, onetime } : { status, service_id, onetime, exists };

describe('constants', () => {
  it('lists the §4 statuses and §9 services', () => {
    expect(SUBSCRIPTION_STATUSES).toEqual([
      'active',
      'paused',
      'canceled',
      'expired',
      'refunded',
      'on_hold',
      'failed',
    ]);
    expect(SERVICE_ID_LIST).toEqual([1, 2, 4, 5, 6]);
    expect(isServiceId(3)).toBe(false);
    expect(isServiceId('1')).toBe(false);
    expect(isServiceId(6)).toBe(true);
  });

  it('parses a subscription value and refuses unknown statuses and services', () => {
    expect(
      subscriptionValueSchema.parse({ status: 'on_hold', service_id: 4, onetime: true }),
    ).toEqual({ status: 'on_hold', service_id: 4, onetime: true });
    expect(
      subscriptionValueSchema.safeParse({ status: 'trial', service_id: 1, onetime: false }).success,
    ).toBe(false);
    expect(
      subscriptionValueSchema.safeParse({ status: 'active', service_id: 3, onetime: false })
        .success,
    ).toBe(false);
  });
});

describe('canUpgrade', () => {
  it.each<[string, SubscriptionValue | null, boolean, boolean]>([
    ['active card', sub('active', 1), false, true],
    ['active PayPal', sub('active', 2), false, true],
    ['active card, one-time', sub('active', 1, true), false, true],
    ['near miss: active card while an invoice is finalising', sub('active', 1), true, false],
    ['near miss: active PayPal while an invoice is finalising', sub('active', 2), true, false],
    ['active in-app purchase, one-time', sub('active', 4, true), false, true],
    ['active crypto, one-time', sub('active', 6, true), false, true],
    ['finalising does not matter for one-time in-app', sub('active', 4, true), true, true],
    ['finalising does not matter for one-time crypto', sub('active', 6, true), true, true],
    ['near miss: active in-app purchase, recurring', sub('active', 4), false, false],
    ['near miss: active crypto, recurring', sub('active', 6), false, false],
    ['near miss: active bonus', sub('active', 5), false, false],
    ['paused card, recurring', sub('paused', 1), false, true],
    ['paused PayPal, recurring', sub('paused', 2), false, true],
    ['canceled card, recurring', sub('canceled', 1), false, true],
    ['canceled PayPal, recurring', sub('canceled', 2), false, true],
    ['finalising does not matter when paused', sub('paused', 1), true, true],
    ['near miss: paused card, one-time', sub('paused', 1, true), false, false],
    ['near miss: canceled PayPal, one-time', sub('canceled', 2, true), false, false],
    ['near miss: paused in-app purchase', sub('paused', 4), false, false],
    ['near miss: canceled crypto, one-time', sub('canceled', 6, true), false, false],
    ['near miss: expired card', sub('expired', 1), false, false],
    ['near miss: on hold card', sub('on_hold', 1), false, false],
    ['near miss: active card that does not exist', sub('active', 1, false, false), false, false],
    ['no subscription', null, false, false],
  ])('%s', (_, value, finalizing, expected) => {
    expect(canUpgrade(value, finalizing)).toBe(expected);
  });
});

describe('canReactivate', () => {
  it.each<[string, SubscriptionValue | null, boolean]>([
    ['expired card', sub('expired', 1), true],
    ['refunded card', sub('refunded', 1), true],
    ['expired PayPal', sub('expired', 2), true],
    ['refunded PayPal, one-time', sub('refunded', 2, true), true],
    ['expired in-app purchase', sub('expired', 4), true],
    ['refunded in-app purchase, one-time', sub('refunded', 4, true), true],
    ['expired crypto, one-time', sub('expired', 6, true), true],
    ['refunded crypto, one-time', sub('refunded', 6, true), true],
    ['near miss: expired crypto, recurring', sub('expired', 6), false],
    ['near miss: active crypto, one-time (status still needed)', sub('active', 6, true), false],
    ['near miss: failed crypto, one-time', sub('failed', 6, true), false],
    ['near miss: expired bonus', sub('expired', 5), false],
    ['near miss: canceled card', sub('canceled', 1), false],
    ['near miss: active card', sub('active', 1), false],
    ['near miss: failed in-app purchase', sub('failed', 4), false],
    ['near miss: expired card that does not exist', sub('expired', 1, false, false), false],
    ['no subscription', null, false],
  ])('%s', (_, value, expected) => {
    expect(canReactivate(value)).toBe(expected);
  });
});

describe('canBonusUpgrade', () => {
  it.each<[string, SubscriptionValue | null, boolean]>([
    ['active bonus', sub('active', 5), true],
    ['expired bonus', sub('expired', 5), true],
    ['refunded bonus', sub('refunded', 5), true],
    ['near miss: active bonus, one-time', sub('active', 5, true), false],
    ['near miss: paused bonus', sub('paused', 5), false],
    ['near miss: canceled bonus', sub('canceled', 5), false],
    ['near miss: failed bonus', sub('failed', 5), false],
    ['near miss: active card', sub('active', 1), false],
    ['near miss: expired crypto', sub('expired', 6), false],
    ['near miss: active bonus that does not exist', sub('active', 5, false, false), false],
    ['no subscription', null, false],
  ])('%s', (_, value, expected) => {
    expect(canBonusUpgrade(value)).toBe(expected);
  });
});

describe('hasMembership', () => {
  it.each<[string, SubscriptionValue | null | undefined, boolean]>([
    ['a subscription without the exists flag', sub('failed', 4), true],
    ['a subscription that exists', sub('expired', 6, true, true), true],
    ['near miss: a subscription marked as not existing', sub('active', 1, false, false), false],
    ['null', null, false],
    ['undefined', undefined, false],
  ])('%s', (_, value, expected) => {
    expect(hasMembership(value)).toBe(expected);
  });
});

describe('canFixPaymentMethod', () => {
  it.each<[string, SubscriptionValue | null, boolean]>([
    ['on hold card', sub('on_hold', 1), true],
    ['failed card', sub('failed', 1), true],
    ['on hold PayPal', sub('on_hold', 2), true],
    ['failed PayPal', sub('failed', 2), true],
    ['failed in-app purchase', sub('failed', 4), true],
    ['near miss: on hold card, one-time', sub('on_hold', 1, true), false],
    ['near miss: failed PayPal, one-time', sub('failed', 2, true), false],
    ['near miss: failed in-app purchase, one-time', sub('failed', 4, true), false],
    ['near miss: on hold in-app purchase', sub('on_hold', 4), false],
    ['near miss: failed crypto', sub('failed', 6), false],
    ['near miss: failed bonus', sub('failed', 5), false],
    ['near miss: active card', sub('active', 1), false],
    ['near miss: expired card', sub('expired', 1), false],
    ['near miss: failed card that does not exist', sub('failed', 1, false, false), false],
    ['no subscription', null, false],
  ])('%s', (_, value, expected) => {
    expect(canFixPaymentMethod(value)).toBe(expected);
  });
});

// The §4 rules again, written as data rather than code: each row is one clause of the spec,
// and `any` stands for "the spec does not say". A function is right when it says yes exactly
// where some row matches.
type Rule = {
  statuses: SubscriptionStatus[];
  services: ServiceId[];
  onetime: boolean | 'any';
  finalizing?: boolean | 'any';
};
const SPEC: Record<'upgrade' | 'reactivate' | 'bonusUpgrade' | 'fixPaymentMethod', Rule[]> = {
  upgrade: [
    { statuses: ['active'], services: [1, 2], onetime: 'any', finalizing: false },
    { statuses: ['active'], services: [4, 6], onetime: true },
    { statuses: ['paused', 'canceled'], services: [1, 2], onetime: false },
  ],
  reactivate: [
    { statuses: ['expired', 'refunded'], services: [1, 2, 4], onetime: 'any' },
    { statuses: ['expired', 'refunded'], services: [6], onetime: true },
  ],
  bonusUpgrade: [{ statuses: ['active', 'expired', 'refunded'], services: [5], onetime: false }],
  fixPaymentMethod: [
    { statuses: ['on_hold', 'failed'], services: [1, 2], onetime: false },
    { statuses: ['failed'], services: [4], onetime: false },
  ],
};

const specSays = (rules: Rule[], s: SubscriptionValue, finalizing: boolean) =>
  s.exists !== false &&
  rules.some(
    (rule) =>
      rule.statuses.includes(s.status) &&
      rule.services.includes(s.service_id) &&
      (rule.onetime === 'any' || rule.onetime === s.onetime) &&
      (rule.finalizing === undefined ||
        rule.finalizing === 'any' ||
        rule.finalizing === finalizing),
  );

describe('every combination', () => {
  const combinations = SUBSCRIPTION_STATUSES.flatMap((status) =>
    SERVICE_ID_LIST.flatMap((service) =>
      [false, true].flatMap((onetime) =>
        [undefined, true, false].flatMap((exists) =>
          [false, true].map((finalizing) => ({
            value: sub(status, service, onetime, exists),
            finalizing,
          })),
        ),
      ),
    ),
  );

  it('covers 7 statuses × 5 services × one-time × exists × finalising', () => {
    expect(combinations).toHaveLength(7 * 5 * 2 * 3 * 2);
  });

  it.each(combinations)(
    '$value.status/$value.service_id/onetime $value.onetime/exists $value.exists/finalizing $finalizing',
    ({ value, finalizing }) => {
      expect(accountActions(value, finalizing)).toEqual({
        upgrade: specSays(SPEC.upgrade, value, finalizing),
        reactivate: specSays(SPEC.reactivate, value, finalizing),
        bonusUpgrade: specSays(SPEC.bonusUpgrade, value, finalizing),
        membership: value.exists !== false,
        fixPaymentMethod: specSays(SPEC.fixPaymentMethod, value, finalizing),
      });
    },
  );

  it('offers nothing for an absent subscription', () => {
    for (const finalizing of [false, true]) {
      expect(accountActions(null, finalizing)).toEqual({
        upgrade: false,
        reactivate: false,
        bonusUpgrade: false,
        membership: false,
        fixPaymentMethod: false,
      });
    }
  });

  it('offers only the membership page for a service id outside §9', () => {
    fc.assert(
      fc.property(
        fc.integer().filter((id) => !isServiceId(id)),
        fc.constantFrom(...SUBSCRIPTION_STATUSES),
        fc.boolean(),
        fc.boolean(),
        (id, status, onetime, finalizing) => {
          const value = { status, service_id: id as ServiceId, onetime };
          expect(accountActions(value, finalizing)).toEqual({
            upgrade: false,
            reactivate: false,
            bonusUpgrade: false,
            membership: true,
            fixPaymentMethod: false,
          });
        },
      ),
    );
  });
});
