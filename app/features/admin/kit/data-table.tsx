import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A column of an admin table: an i18n key for the header, a cell, and its sort field. */
export interface Column<Row> {
  key: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** The list's `sort` value that orders by this column; unsortable without it. */
  sort?: string;
  className?: string;
}

interface Props<Row> {
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  rowActions?: ((row: Row) => ReactNode) | undefined;
  sort: string | undefined;
  direction: 'asc' | 'desc' | undefined;
  /** A new page or order is on its way: the old rows stay, marked busy. */
  busy: boolean;
  onSort: (sort: string, direction: 'asc' | 'desc') => void;
}

/** The table of a list page: sortable headers are buttons that say the order (aria-sort). */
export function DataTable<Row>(props: Props<Row>) {
  const { t } = useTranslation();
  const { columns, sort, direction } = props;
  return (
    // `relative` keeps the screen-reader-only header inside the scroll box (it is positioned).
    <div className="relative overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm" aria-busy={props.busy || undefined}>
        <caption className="sr-only">{props.caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600 uppercase">
          <tr>
            {columns.map((column) => {
              const active = column.sort !== undefined && column.sort === sort;
              const order = active ? (direction ?? 'desc') : undefined;
              return (
                <th
                  key={column.key}
                  scope="col"
                  className={`px-4 py-3 font-semibold ${column.className ?? ''}`}
                  aria-sort={order ? (order === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  {column.sort ? (
                    <button
                      type="button"
                      className="inline-flex items-center gap-1 uppercase hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-500"
                      onClick={() =>
                        props.onSort(column.sort as string, order === 'asc' ? 'desc' : 'asc')
                      }
                    >
                      {t(column.header)}
                      <span aria-hidden="true">{order === 'asc' ? '▲' : order ? '▼' : '↕'}</span>
                    </button>
                  ) : (
                    t(column.header)
                  )}
                </th>
              );
            })}
            {props.rowActions && (
              <th scope="col" className="px-4 py-3 text-right font-semibold">
                <span className="sr-only">{t('staff.kit.actions')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody className={`divide-y divide-slate-100 ${props.busy ? 'opacity-60' : ''}`}>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)} className="hover:bg-slate-50">
              {columns.map((column) => (
                <td key={column.key} className={`px-4 py-3 align-top ${column.className ?? ''}`}>
                  {column.cell(row)}
                </td>
              ))}
              {props.rowActions && (
                <td className="px-4 py-3 text-right whitespace-nowrap">{props.rowActions(row)}</td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
