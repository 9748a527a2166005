import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/** A list's state as the URL holds it: page, search, sort and filters (§3 list controls). */
export interface ListParams {
  page: number;
  search: string;
  sort: string | undefined;
  direction: 'asc' | 'desc' | undefined;
  filters: Record<string, string>;
}

export type ListPatch = Partial<Omit<ListParams, 'filters'>> & {
  filters?: Record<string, string | undefined>;
};

/**
 * Reads and writes a list's state in the URL, so a page can be shared, reloaded and
 * navigated with Back. `prefix` keeps two lists of one page apart (a customer's trail).
 * Changing the search, a filter or the sort goes back to page 1.
 */
export function useListParams(filterNames: readonly string[], prefix = '') {
  const [searchParams, setSearchParams] = useSearchParams();
  const key = useCallback((name: string) => `${prefix}${name}`, [prefix]);

  const params = useMemo<ListParams>(() => {
    const page = Number(searchParams.get(key('page')) ?? '1');
    const direction = searchParams.get(key('direction'));
    const filters: Record<string, string> = {};
    for (const name of filterNames) {
      const value = searchParams.get(key(name));
      if (value) filters[name] = value;
    }
    return {
      page: Number.isInteger(page) && page > 0 ? page : 1,
      search: searchParams.get(key('search')) ?? '',
      sort: searchParams.get(key('sort')) ?? undefined,
      direction: direction === 'asc' || direction === 'desc' ? direction : undefined,
      filters,
    };
  }, [searchParams, filterNames, key]);

  const update = useCallback(
    (patch: ListPatch) => {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          const put = (name: string, value: string | number | undefined) => {
            if (value === undefined || value === '' || (name === 'page' && value === 1)) {
              next.delete(key(name));
            } else next.set(key(name), String(value));
          };
          const { filters, ...rest } = patch;
          for (const [name, value] of Object.entries(rest)) put(name, value);
          for (const [name, value] of Object.entries(filters ?? {})) put(name, value);
          if (patch.page === undefined) next.delete(key('page'));
          return next;
        },
        { replace: patch.page === undefined },
      );
    },
    [setSearchParams, key],
  );

  return { params, update };
}

/** The query a list endpoint takes, from the URL state. */
export function listQuery(params: ListParams, perPage: number): Record<string, string | number> {
  return {
    page: params.page,
    per_page: perPage,
    ...(params.search ? { search: params.search } : {}),
    ...(params.sort ? { sort: params.sort } : {}),
    ...(params.direction ? { direction: params.direction } : {}),
    ...params.filters,
  };
}
