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
import type { ChartDrawingProps } from './chart-figures.tsx';

// The only module that imports recharts: it and its dependencies load with the first chart
// a statistics screen draws, in a chunk of the admin screens (vite.config.ts names it), never
// on a customer's page.

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
        margin={{ top: 8, right: 16, bottom: 0, left: 8 }}
      >
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
        <XAxis dataKey={category} tick={{ fontSize: 12, fill: '#475569' }} minTickGap={12} />
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
