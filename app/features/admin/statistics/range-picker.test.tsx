import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { presetRange } from './date-range.ts';
import { RangePicker } from './range-picker.tsx';
import { useStatsRange } from './use-stats-range.ts';

// The statistics period picker over the URL, as a statistics screen holds it.
function Harness() {
  const { state, update } = useStatsRange();
  const { search } = useLocation();
  return (
    <>
      <RangePicker state={state} onChange={update} granularity />
      <output data-testid="asked">
        {state.range ? `${state.range.from}/${state.range.to}` : 'none'}
      </output>
      <output data-testid="search">{search}</output>
      <output data-testid="granularity">{state.granularity}</output>
    </>
  );
}

async function renderPicker(path = '/stats') {
  const router = createMemoryRouter([{ path: '/stats', element: <Harness /> }], {
    initialEntries: [path],
  });
  return render(<RouterProvider router={router} />);
}

describe('the statistics range picker', () => {
  it('starts at the last 30 days, by day, and keeps a preset in the URL', async () => {
    const screen = await renderPicker();
    const last30 = presetRange('30d', new Date());
    await expect
      .element(screen.getByTestId('asked'))
      .toHaveTextContent(`${last30.from}/${last30.to}`);
    await expect.element(screen.getByTestId('granularity')).toHaveTextContent('day');

    await screen.getByRole('combobox', { name: 'Period' }).selectOptions('Last 12 months');
    const year = presetRange('12m', new Date());
    await expect.element(screen.getByTestId('search')).toHaveTextContent('?range=12m');
    await expect.element(screen.getByTestId('asked')).toHaveTextContent(`${year.from}/${year.to}`);
    // A year is drawn by month unless asked otherwise.
    await expect.element(screen.getByTestId('granularity')).toHaveTextContent('month');
    await screen.getByText('By day').click();
    await expect.element(screen.getByTestId('search')).toHaveTextContent('granularity=day');
  });

  it('applies a custom range only once it is right, saying under the field what is wrong', async () => {
    const screen = await renderPicker('/stats?range=90d');
    const shown = presetRange('90d', new Date());
    await screen.getByRole('combobox', { name: 'Period' }).selectOptions('Custom');
    // The custom fields start from the days already shown.
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    await expect.element(from).toHaveValue(shown.from);
    await expect.element(to).toHaveValue(shown.to);

    await from.fill('2026-05-10');
    await to.fill('2026-05-01');
    await screen.getByRole('button', { name: 'Apply' }).click();
    await expect.element(to).toHaveAttribute('aria-invalid', 'true');
    await expect.element(to).toHaveAccessibleDescription('The end must be on or after the start.');
    await expect
      .element(screen.getByTestId('asked'))
      .toHaveTextContent(`${shown.from}/${shown.to}`);

    await from.fill('2020-01-01');
    await to.fill('2026-05-01');
    await screen.getByRole('button', { name: 'Apply' }).click();
    await expect
      .element(from)
      .toHaveAccessibleDescription('A period can be at most 1,100 days long.');

    await from.fill('2026-04-01');
    await screen.getByRole('button', { name: 'Apply' }).click();
    await expect.element(screen.getByTestId('asked')).toHaveTextContent('2026-04-01/2026-05-01');
    await expect
      .element(screen.getByTestId('search'))
      .toHaveTextContent('?range=custom&from=2026-04-01&to=2026-05-01');
    await expect.element(from).not.toHaveAttribute('aria-invalid');
  });

  it('shows what is wrong with a custom range from a shared link, and asks nothing', async () => {
    const screen = await renderPicker('/stats?range=custom&from=2026-02-30&to=');
    await expect.element(screen.getByTestId('asked')).toHaveTextContent('none');
    await expect.element(screen.getByLabelText('From')).toHaveAttribute('aria-invalid', 'true');
    await expect
      .element(screen.getByLabelText('To'))
      .toHaveAccessibleDescription('This field is required.');
  });
});
