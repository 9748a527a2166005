import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Endpoint, EndpointInput, ResponseOf } from '#shared/contracts/endpoint.ts';
import type { ListControls } from '#shared/contracts/list.ts';
import { failureMessage } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { useDebouncedCallback } from '../../../lib/use-debounced-callback.ts';
import { Button } from '../../../ui/button.tsx';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { type Column, DataTable } from './data-table.tsx';
import { listQuery, useListParams } from './list-params.ts';
import { Pager } from './pager.tsx';

type ListEndpoint = Endpoint & { method: 'GET' };
type RowOf<E extends ListEndpoint> = ResponseOf<E> extends { items: (infer R)[] } ? R : never;

/**
 * A filter of the list: a query parameter with its choices, a day, or free text; labels
 * are i18n keys.
 */
export interface ListFilter {
  name: string;
  label: string;
  kind?: 'select' | 'date' | 'text';
  options?: readonly { value: string; label: string }[];
}

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
            <FilterSelect
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

function SearchField(props: { label: string; value: string; onSearch: (value: string) => void }) {
  const id = useId();
  const [text, setText] = useState(props.value);
  const search = useDebouncedCallback((value: string) => props.onSearch(value.trim()), 300);
  return (
    <div className="flex min-w-64 flex-1 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {props.label}
      </label>
      <input
        id={id}
        type="search"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          search(event.target.value);
        }}
        className={FIELD}
      />
    </div>
  );
}

function FilterSelect(props: {
  filter: ListFilter;
  value: string;
  onChange: (value: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const { kind = 'select' } = props.filter;
  const [text, setText] = useState(props.value);
  const typed = useDebouncedCallback(
    (value: string) => props.onChange(value.trim() || undefined),
    300,
  );
  if (kind !== 'select') {
    return (
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {t(props.filter.label)}
        </label>
        <input
          id={id}
          type={kind}
          value={kind === 'date' ? props.value : text}
          onChange={(event) => {
            if (kind === 'date') props.onChange(event.target.value || undefined);
            else {
              setText(event.target.value);
              typed(event.target.value);
            }
          }}
          className={FIELD}
        />
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {t(props.filter.label)}
      </label>
      <select
        id={id}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value || undefined)}
        className={FIELD}
      >
        <option value="">{t('staff.kit.any')}</option>
        {props.filter.options?.map((option) => (
          <option key={option.value} value={option.value}>
            {t(option.label)}
          </option>
        ))}
      </select>
    </div>
  );
}

const FIELD =
  'h-10 rounded-lg border border-[#dfe1e6] bg-white px-3 text-sm focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30';
