import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { Endpoint, EndpointInput, ResponseOf } from '#shared/contracts/endpoint.ts';
import type { ListControls } from '#shared/contracts/list.ts';
import { failureMessage } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { type Column, DataTable } from './data-table.tsx';
import { FilterField, type ListFilter, SearchField } from './list-filters.tsx';
import { listQuery, useListParams } from './list-params.ts';
import { Pager } from './pager.tsx';

type ListEndpoint = Endpoint & { method: 'GET' };
type RowOf<E extends ListEndpoint> = ResponseOf<E> extends { items: (infer R)[] } ? R : never;

export interface ListPageProps<E extends ListEndpoint> {
  /** A list endpoint (`{ items, controls }`, shared/contracts/list.ts). */
  endpoint: E;
  /** Names the table for screen readers. */
  caption: string;
  columns: readonly Column<RowOf<E>>[];
  rowKey: (row: RowOf<E>) => string | number;
  /** Buttons of a row (view, log out …); keyboard reachable like any button. */
  rowActions?: (row: RowOf<E>) => ReactNode;
  filters?: readonly ListFilter[];
  /** Translated label of the search field; no search without it. */
  searchLabel?: string;
  /** Translated texts of the empty state. */
  empty: { title: string; text?: string };
  /** Query values that are not the visitor's to change (the customer of a trail). */
  fixed?: Record<string, string | number>;
  /** URL parameter prefix, when a page shows two lists. */
  prefix?: string;
  perPage?: number;
}

/**
 * The admin's list screen over the shared list contract: server-side search, filters,
 * sorting and paging kept in the URL; loading, empty and error states; row actions.
 */
export function ListPage<E extends ListEndpoint>(props: ListPageProps<E>) {
  const { endpoint, filters = [], prefix = '', perPage = 20, fixed } = props;
  const { t } = useTranslation();
  const { params, update } = useListParams(
    filters.map((filter) => filter.name),
    prefix,
  );
  const query = { ...listQuery(params, perPage), ...fixed };
  const list = useQuery({
    queryKey: ['admin', endpoint.url, query],
    queryFn: ({ signal }) =>
      call(endpoint, { query } as EndpointInput<E>, { signal }) as Promise<{
        items: RowOf<E>[];
        controls: ListControls;
      }>,
    placeholderData: keepPreviousData,
  });
  const filtered = params.search !== '' || Object.keys(params.filters).length > 0;
  // A page past the end (a shared link, the last row of a page gone): the last page instead.
  const lastPage = list.data?.controls.last_page;
  useEffect(() => {
    if (lastPage !== undefined && params.page > lastPage) update({ page: lastPage });
  }, [lastPage, params.page, update]);

  return (
    <div className="flex flex-col gap-4">
      {(props.searchLabel || filters.length > 0) && (
        <search className="flex flex-wrap items-end gap-3">
          {props.searchLabel && (
            <SearchField
              label={props.searchLabel}
              value={params.search}
              onSearch={(search) => update({ search })}
            />
          )}
          {filters.map((filter) => (
            <FilterField
              key={filter.name}
              filter={filter}
              value={params.filters[filter.name] ?? ''}
              onChange={(value) => update({ filters: { [filter.name]: value } })}
            />
          ))}
        </search>
      )}
      {list.isPending ? (
        <LoadingBlock />
      ) : list.isError ? (
        <EmptyState
          title={t('staff.kit.load_failed')}
          text={t(failureMessage(list.error))}
          action={<Button onClick={() => list.refetch()}>{t('staff.kit.retry')}</Button>}
        />
      ) : list.data.items.length === 0 ? (
        <EmptyState
          title={filtered ? t('staff.kit.no_match') : props.empty.title}
          text={filtered ? t('staff.kit.no_match_text') : props.empty.text}
        />
      ) : (
        <>
          <DataTable
            caption={props.caption}
            columns={props.columns}
            rows={list.data.items}
            rowKey={props.rowKey}
            rowActions={props.rowActions}
            sort={params.sort}
            direction={params.direction}
            busy={list.isFetching}
            onSort={(sort, direction) => update({ sort, direction })}
          />
          <Pager controls={list.data.controls} onPage={(page) => update({ page })} />
        </>
      )}
    </div>
  );
}
