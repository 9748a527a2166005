import type { SubscriptionDetail } from '#shared/contracts/billing.ts';
import type { DashboardResponse } from '#shared/contracts/dashboard.ts';
import type { FamilySharing } from '#shared/contracts/family-sharing.ts';
import type { ReferralView } from '#shared/contracts/referral.ts';
import { familyView } from '../family-sharing/family-test-data.ts';

// Answers of the calls the dashboard makes, every field filled; each test overrides what it
// is about. Data only: the tests stub fetch themselves.

export const PERIOD_END = '2026-12-01T00:00:00.000Z';

export function dashboardAnswer(overrides: Partial<DashboardResponse> = {}): DashboardResponse {
  return {
    access: { active: false, until: null, sources: [] },
    devices_count: 1,
    ...overrides,
  };
}

export function subscriptionDetail(
  overrides: Partial<SubscriptionDetail> = {},
): SubscriptionDetail {
  return {
    subscription_id: 7,
    status: 'active',
    service_id: 1,
    onetime: false,
    exists: true,
    payment_method: { type: 'card', card: null },
    plan: {
      plan_id: 'vpn-monthly',
      product_id: 11,
      name: 'VPN Monthly',
      interval: 'month',
      interval_count: 1,
    },
    subscription_items: [],
    currency: 'USD',
    amount: 999,
    current_period_start: '2026-11-01T00:00:00.000Z',
    current_period_end: PERIOD_END,
    cancel_at_period_end: false,
    paused_at: null,
    grace_until: null,
    ended_at: null,
    ...overrides,
  };
}

export function referralAnswer(overrides: Partial<ReferralView> = {}): ReferralView {
  return {
    code: 'ANN2024',
    referrals_count: 0,
    bonus_days_left: 0,
    bonus_days_per_friend: 30,
    ...overrides,
  };
}

export function familyAnswer(overrides: Partial<FamilySharing> = {}): {
  familySharing: FamilySharing;
} {
  return { familySharing: familyView(overrides) };
}
