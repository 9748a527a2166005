import { useQuery } from '@tanstack/react-query';
import { referralEndpoints } from '#shared/contracts/referral.ts';
import { call } from '../../api/client.ts';
import { useLiveRefetch } from '../../api/use-live-refetch.ts';

/** The same key as the dashboard's referral card: both read one cache entry. */
export const referralKeys = {
  all: ['referral'] as const,
  view: ['referral', 'view'] as const,
};

/**
 * The user's link code and figures, fetched again when someone joins through the link or
 * bonus days come (their referral and subscription events).
 */
export function useReferralView() {
  useLiveRefetch(['referral', 'subscription'], referralKeys.all);
  return useQuery({
    queryKey: referralKeys.view,
    queryFn: ({ signal }) => call(referralEndpoints.view, {}, { signal }),
  });
}
