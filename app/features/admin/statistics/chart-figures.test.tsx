import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { ChartFigures, COLORS } from './chart-figures.tsx';
import { moneyFormat } from './figures-format.ts';

// A chart and its figures as a table: the picture is drawn, and everything in it is readable
// as a table by a screen reader, or by anyone who opens it.
const rows = [
  { period: 'Nov 1', gross: 1999, refunds: 0, net: 1999 },
  { period: 'Nov 2', gross: 5997, refunds: 1999, net: 3998 },
  { period: 'Nov 3', gross: 0, refunds: 0, net: 0 },
];

function renderChart(data: typeof rows) {
  return render(
    <div style={{ width: 640 }}>
      <ChartFigures
        title="Takings by day (USD)"
        categoryLabel="Day"
        rows={data}
        category="period"
        series={[
          { key: 'gross', label: 'Paid', color: COLORS.green },
          { key: 'refunds', label: 'Refunded', color: COLORS.red },
          { key: 'net', label: 'Net', color: COLORS.blue, kind: 'line' },
        ]}
        format={moneyFormat('USD', 'en')}
      />
    </div>,
  );
}

describe('a chart with its figures', () => {
  it('draws the series and holds the same figures in a captioned table', async () => {
    const screen = await renderChart(rows);
    await expect
      .element(screen.getByRole('figure', { name: 'Takings by day (USD)' }))
      .toBeVisible();
    // recharts loads with the first chart (a cold dev server prepares it first: time for that)
    // and draws bars and a line as SVG paths.
    await expect
      .poll(() => document.querySelectorAll('.recharts-bar-rectangle path').length, {
        timeout: 15_000,
      })
      .toBeGreaterThan(0);
    await expect.poll(() => document.querySelectorAll('.recharts-line-curve').length).toBe(1);

    const table = screen.getByRole('table', { name: 'Takings by day (USD)' });
    await expect.element(table.getByRole('columnheader', { name: 'Refunded' })).toBeInTheDocument();
    await expect
      .element(table.getByRole('row', { name: /Nov 2/ }))
      .toHaveTextContent('Nov 2$59.97$19.99$39.98');
    expect(table.getByRole('row').elements()).toHaveLength(4);
  });

  it('shows the table on request, and says when there is nothing to draw', async () => {
    const screen = await renderChart(rows);
    const toggle = screen.getByRole('button', { name: 'Show figures as a table' });
    await expect.element(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect
      .element(screen.getByRole('button', { name: 'Hide the table' }))
      .toHaveAttribute('aria-expanded', 'true');
    await expect.element(screen.getByRole('table')).toBeVisible();

    const empty = await renderChart([]);
    await expect.element(empty.getByText('No figures for this period.')).toBeVisible();
  });
});
