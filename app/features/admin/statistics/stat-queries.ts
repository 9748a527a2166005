import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type StatisticsRange, statisticsEndpoints } from '#shared/contracts/admin/statistics.ts';
import { call } from '../../../api/client.ts';
import type { Granularity } from './date-range.ts';

// The statistics screens' server state, one key per call and range. A new range keeps the
// old figures shown (marked busy) until the new ones come.

const KEY = ['admin', 'statistics'] as const;

/** Skipped while the range is wrong (`null`): the picker says why. */
export function useEarnings(range: StatisticsRange | null, granularity: Granularity) {
  return useQuery({
    queryKey: [...KEY, 'earnings', range, granularity],
    queryFn: ({ signal }) =>
      call(
        statisticsEndpoints.earnings,
        { query: { ...(range as StatisticsRange), granularity } },
        { signal },
      ),
    enabled: range !== null,
    placeholderData: keepPreviousData,
  });
}

export function useByCountry(range: StatisticsRange | null) {
  return useQuery({
    queryKey: [...KEY, 'by-country', range],
    queryFn: ({ signal }) =>
      call(statisticsEndpoints.byCountry, { query: range as StatisticsRange }, { signal }),
    enabled: range !== null,
    placeholderData: keepPreviousData,
  });
}

export function useMrr(range: StatisticsRange | null) {
  return useQuery({
    queryKey: [...KEY, 'mrr', range],
    queryFn: ({ signal }) =>
      call(statisticsEndpoints.mrr, { query: range as StatisticsRange }, { signal }),
    enabled: range !== null,
    placeholderData: keepPreviousData,
  });
}

export function useSubscriptionStats(range: StatisticsRange | null) {
  return useQuery({
    queryKey: [...KEY, 'subscriptions', range],
    queryFn: ({ signal }) =>
      call(statisticsEndpoints.subscriptions, { query: range as StatisticsRange }, { signal }),
    enabled: range !== null,
    placeholderData: keepPreviousData,
  });
}
