import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  FAMILY_SHARING_QUERY_KEY,
  type FamilySharingResponse,
  familySharingEndpoints,
} from '#shared/contracts/family-sharing.ts';
import { call } from '../../api/client.ts';
import { useLiveRefetch } from '../../api/use-live-refetch.ts';

/**
 * The caller's family sharing, under the key the dashboard's family card reads too; fetched
 * again when the group changes elsewhere (the other side's answer, a removal, the owner's
 * plan) or the caller's own subscription changes.
 */
export function useFamilySharing() {
  useLiveRefetch(['family', 'subscription'], ['family-sharing']);
  return useQuery({
    queryKey: FAMILY_SHARING_QUERY_KEY,
    queryFn: ({ signal }) => call(familySharingEndpoints.view, {}, { signal }),
  });
}

/**
 * Applies the answer of a family sharing call (every call answers the group as it now is):
 * it replaces what the page shows, so nothing is fetched twice.
 */
export function useApplyFamily() {
  const client = useQueryClient();
  return useCallback(
    async (request: Promise<FamilySharingResponse>) => {
      const answer = await request;
      client.setQueryData(FAMILY_SHARING_QUERY_KEY, answer);
      return answer.familySharing;
    },
    [client],
  );
}

/** A date of the family page, in the page's language. */
export function formatFamilyDate(iso: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium' }).format(new Date(iso));
}
