import { useSearchParams } from 'react-router';
import { SERVER_STATUSES, SUGGESTED_TAGS } from '#shared/vpn/fleet-rules.ts';
import type { ListFilter } from '../kit/list-filters.tsx';
import { useFleetCountries, useFleetTags } from './fleet-queries.ts';

/** The names of the servers' list filters, as they stand in the URL. */
export const SERVER_FILTER_NAMES = ['country_code', 'status', 'tag'] as const;

/**
 * The filters of both server lists (§2 all-servers and servers-list): the countries that have
 * servers, the statuses, and the tags in use.
 */
export function useServerFilters(): ListFilter[] {
  const countries = useFleetCountries('with_servers');
  const tag = useSearchParams()[0].get('tag');
  const tags = useFleetTags();
  return [
    {
      name: 'country_code',
      label: 'staff_servers.fields.country_code',
      options: (countries.data ?? []).map((country) => ({
        value: country.country_code,
        text: country.name,
      })),
    },
    {
      name: 'status',
      label: 'staff_servers.fields.status',
      options: SERVER_STATUSES.map((status) => ({
        value: status,
        label: `staff_servers.statuses.${status}`,
      })),
    },
    {
      name: 'tag',
      label: 'staff_servers.fields.tag',
      // A tag of the URL's that is not among the common ones stays chosen.
      options: [
        ...new Set([
          ...(tags.data?.items.map((item) => item.tag) ?? SUGGESTED_TAGS),
          ...(tag ? [tag] : []),
        ]),
      ].map((value) => ({ value, text: value })),
    },
  ];
}
