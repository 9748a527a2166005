import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartDrawing, type ChartDrawingProps } from './chart-drawing.tsx';

export type { ChartRow, ChartSeries } from './chart-drawing.tsx';

/** The series' colours: told apart by hue and lightness, so by most colour-blind eyes too. */
export const COLORS = {
  blue: '#2563eb',
  green: '#16a34a',
  red: '#dc2626',
  amber: '#d97706',
  violet: '#7c3aed',
  cyan: '#0891b2',
  slate: '#475569',
  pink: '#db2777',
} as const;

/**
 * A chart with its figures as a table: the table is always in the page for screen readers
 * (visually hidden until shown), so nothing the chart says is only in the picture.
 */
export function ChartFigures(
  props: Omit<ChartDrawingProps, 'axisFormat'> & {
    /** Translated: the figure's caption and the table's. */
    title: string;
    /** The category column's header. */
    categoryLabel: string;
    axisFormat?: (value: number) => string;
    /** Translated text beside the title (which currency, what is counted). */
    note?: string;
  },
) {
  const { t } = useTranslation();
  const [tableShown, setTableShown] = useState(false);
  const tableId = useId();
  const titleId = useId();
  const { rows, series, format } = props;
  return (
    <figure
      aria-labelledby={titleId}
      className="flex min-w-0 flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <figcaption id={titleId} className="text-base font-semibold text-slate-900">
            {props.title}
          </figcaption>
          {props.note && <p className="text-sm text-slate-600">{props.note}</p>}
        </div>
        {rows.length > 0 && (
          <button
            type="button"
            aria-expanded={tableShown}
            aria-controls={tableId}
            onClick={() => setTableShown((shown) => !shown)}
            className="rounded-lg px-2 py-1 text-sm font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-500"
          >
            {t(tableShown ? 'staff_stats.chart.hide_table' : 'staff_stats.chart.show_table')}
          </button>
        )}
      </div>
      {rows.length === 0 ? (
        <p className="py-10 text-center text-sm text-slate-600">{t('staff_stats.chart.empty')}</p>
      ) : (
        <>
          {/* The table below says the same to screen readers. */}
          <div className="min-h-[280px]" data-chart="drawing">
            <ChartDrawing
              rows={rows}
              category={props.category}
              series={series.filter((line) => !line.tableOnly)}
              format={format}
              axisFormat={props.axisFormat ?? format}
            />
          </div>
          <div id={tableId} className={tableShown ? 'overflow-x-auto' : 'sr-only'}>
            <table className="w-full text-left text-sm">
              <caption className="sr-only">{props.title}</caption>
              <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600 uppercase">
                <tr>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    {props.categoryLabel}
                  </th>
                  {series.map((line) => (
                    <th key={line.key} scope="col" className="px-3 py-2 text-right font-semibold">
                      {line.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.map((row, index) => (
                  // Categories are unique per chart, but a label may repeat (two plans' names).
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows are replaced whole, never reordered
                  <tr key={index}>
                    <th scope="row" className="px-3 py-2 font-medium text-slate-800">
                      {row[props.category]}
                    </th>
                    {series.map((line) => {
                      const value = row[line.key];
                      return (
                        <td key={line.key} className="px-3 py-2 text-right tabular-nums">
                          {typeof value === 'number'
                            ? (line.format ?? format)(value)
                            : (value ?? '—')}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </figure>
  );
}
