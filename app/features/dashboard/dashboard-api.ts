import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { DASHBOARD_QUERY_KEY, dashboardEndpoints } from '#shared/contracts/dashboard.ts';
import {
  FAMILY_SHARING_QUERY_KEY,
  familySharingEndpoints,
} from '#shared/contracts/family-sharing.ts';
import { referralEndpoints } from '#shared/contracts/referral.ts';
import { call } from '../../api/client.ts';
import { useLiveRefetch } from '../../api/use-live-refetch.ts';
import { onSubscriptionRefreshed } from '../../session/current-subscription.ts';

// The dashboard's queries. Its own ones live under ['dashboard', …] so that one live event
// refreshes them all; referrals and family sharing keep their features' keys, so a change
// made on their pages shows here from the same cache.
export const dashboardKeys = {
  all: ['dashboard'] as const,
  view: DASHBOARD_QUERY_KEY,
  subscription: ['dashboard', 'subscription'] as const,
  referral: ['referral', 'view'] as const,
  family: FAMILY_SHARING_QUERY_KEY,
};

// Live events reach only an open dashboard: one opened again after an order or a family
// change elsewhere in the app shows what it had at once, and fetches anew behind it.
const FRESH_ON_OPEN = { refetchOnMount: 'always' } as const;

export function useDashboard() {
  return useQuery({
    queryKey: dashboardKeys.view,
    queryFn: ({ signal }) => call(dashboardEndpoints.view, {}, { signal }),
    ...FRESH_ON_OPEN,
  });
}

/** The plan behind the session's current subscription: name and dates. */
export function useSubscriptionDetail(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKeys.subscription,
    queryFn: ({ signal }) => call(billingEndpoints.subscription, {}, { signal }),
    select: (answer) => answer.subscription,
    enabled,
    ...FRESH_ON_OPEN,
  });
}

export function useReferralView() {
  return useQuery({
    queryKey: dashboardKeys.referral,
    queryFn: ({ signal }) => call(referralEndpoints.view, {}, { signal }),
    ...FRESH_ON_OPEN,
  });
}

export function useFamilySharing() {
  return useQuery({
    queryKey: dashboardKeys.family,
    queryFn: ({ signal }) => call(familySharingEndpoints.view, {}, { signal }),
    select: (answer) => answer.familySharing,
    ...FRESH_ON_OPEN,
  });
}

/**
 * Live: access may change with the subscription, a family seat or a referral's bonus days;
 * the referral and family cards follow their own topics; a refresh of the session's
 * subscription (an action elsewhere in this tab) refreshes the dashboard too.
 */
export function useDashboardLiveRefresh(): void {
  useLiveRefetch(['subscription', 'family', 'referral'], dashboardKeys.all);
  useLiveRefetch(['referral'], dashboardKeys.referral);
  useLiveRefetch(['family'], dashboardKeys.family);
  const client = useQueryClient();
  useEffect(
    () =>
      onSubscriptionRefreshed(() => {
        void client.invalidateQueries({ queryKey: dashboardKeys.all });
      }),
    [client],
  );
}
