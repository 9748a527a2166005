import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

// The only module that imports recharts. It is part of the statistics screens' chunk, one of
// the admin screens' (vite.config.ts names it admin-*), so a customer's browser never loads it.
// It is imported statically on purpose: a lazy import() inside a lazy screen splits the
// bundler's shared chunks anew and grows the public home's first load.

/** One thing drawn: a series of bars (stacked when they share `stack`) or a line. */
export interface ChartSeries {
  key: string;
  /** Translated. */
  label: string;
  color: string;
  kind?: 'bar' | 'line';
  stack?: string;
  /** Its own way of writing a figure (a count beside money, a rate beside counts). */
  format?: (value: number) => string;
  /** Only a column of the table: a figure that explains the drawn ones. */
  tableOnly?: boolean;
}

export type ChartRow = Record<string, string | number>;

export interface ChartDrawingProps {
  rows: readonly ChartRow[];
  /** The row field that names each point (already in the page's words: "Nov 24"). */
  category: string;
  series: readonly ChartSeries[];
  format: (value: number) => string;
  axisFormat: (value: number) => string;
}

/** Bars and lines over one category axis, with recharts' keyboard and screen-reader layer. */
export function ChartDrawing({ rows, category, series, format, axisFormat }: ChartDrawingProps) {
  const hasNegative = rows.some((row) =>
    series.some((line) => typeof row[line.key] === 'number' && (row[line.key] as number) < 0),
  );
  return (
    <ResponsiveContainer width="100%" height={280}>
      <ComposedChart
        data={rows as Record<string, string | number>[]}
        accessibilityLayer
        // Losses (negative figures) stack below the axis, gains above it.
        stackOffset={hasNegative ? 'sign' : 'none'}
        margin={{ top: 8, right: 16, bottom: 0, left: 8 }}
      >
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
        <XAxis
          dataKey={category}
          tick={{ fontSize: 12, fill: '#475569' }}
          // A few categories are each named; a long series names what fits.
          interval={rows.length <= 12 ? 0 : 'preserveEnd'}
          minTickGap={12}
        />
        <YAxis
          tick={{ fontSize: 12, fill: '#475569' }}
          tickFormatter={(value: number) => axisFormat(value)}
          width={72}
        />
        {hasNegative && <ReferenceLine y={0} stroke="#94a3b8" />}
        <Tooltip
          formatter={(value, _name, item) => {
            if (typeof value !== 'number') return value;
            const own = series.find((line) => line.key === item.dataKey)?.format;
            return (own ?? format)(value);
          }}
        />
        {series.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} />}
        {series.map((line) =>
          line.kind === 'line' ? (
            <Line
              key={line.key}
              dataKey={line.key}
              name={line.label}
              stroke={line.color}
              strokeWidth={2}
              dot={rows.length <= 31}
              isAnimationActive={false}
            />
          ) : (
            <Bar
              key={line.key}
              dataKey={line.key}
              name={line.label}
              fill={line.color}
              {...(line.stack ? { stackId: line.stack } : {})}
              maxBarSize={48}
              isAnimationActive={false}
            />
          ),
        )}
      </ComposedChart>
    </ResponsiveContainer>
  );
}
