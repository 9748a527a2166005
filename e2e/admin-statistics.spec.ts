import { expect, type Locator, type Page, test } from '@playwright/test';
import { DEMO, signIn } from './support/auth.ts';

// §2 /admin/dashboard and /admin/statistics as the admin uses them, on the server's demo
// data. The assertions hold for the small seed (the demo customer's one yearly payment,
// made when the server starts) and for the big one (18 months of about 2,000 customers):
// they ask for drawn shapes and table rows, not for exact figures.

/** A chart drawn from figures: SVG shapes in it, and its table with rows of figures. */
async function expectDrawn(chart: Locator, shapes = '.recharts-bar-rectangle path') {
  await expect(chart.locator('.recharts-surface').first()).toBeVisible({ timeout: 15_000 });
  await expect(chart.locator(shapes).first()).toBeAttached();
  const table = chart.getByRole('table');
  // Its caption names it like the chart; the header row, then at least one row of figures.
  await expect(table.getByRole('row').nth(1)).toBeAttached();
  await expect(table.getByRole('row').nth(1).getByRole('rowheader')).not.toBeEmpty();
}

function figure(page: Page, name: RegExp | string): Locator {
  return page.getByRole('figure', { name });
}

test('the statistics page draws its charts from seeded data', async ({ page }) => {
  test.setTimeout(60_000);
  const adminChunks: string[] = [];
  page.on('request', (request) => {
    if (/\/assets\/admin-/.test(request.url())) adminChunks.push(request.url());
  });

  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  // Staff land on the dashboard, with this month's takings and the shop's counts.
  await expect(page).toHaveURL(/\/en\/admin\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
  const revenue = page.getByRole('region', { name: 'Revenue' });
  await expect(revenue.getByRole('listitem').first()).toContainText('This month');
  await expect(page.getByText('Active subscriptions')).toBeVisible();
  const latest = page.getByRole('region', { name: 'Latest invoices' });
  await expect(latest.getByRole('row').nth(1)).toBeVisible();

  // Earnings: the charts are drawn from the demo's payments, each with its table.
  await page.getByRole('region', { name: 'Go to' }).getByRole('link', { name: 'Earnings' }).click();
  await expect(page).toHaveURL(/\/en\/admin\/statistics\/earnings\/overview/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Earnings');
  const byDay = figure(page, /^Takings by day \([A-Z]{3}\)$/);
  await expectDrawn(byDay);
  await expect(byDay.locator('.recharts-line-curve')).toHaveCount(1);
  // Thirty days, each a row of the table whether or not anything was paid that day.
  await expect(byDay.getByRole('table').getByRole('row')).toHaveCount(31);
  await expectDrawn(figure(page, /^Takings by gateway/));
  await expectDrawn(figure(page, /^Takings by country/));
  await expect(page.getByText(/never added together/).first()).toBeVisible();

  // By month over twelve months: one row a month.
  await page.getByRole('combobox', { name: 'Period' }).selectOption({ label: 'Last 12 months' });
  await expect(page).toHaveURL(/range=12m/);
  const byMonth = figure(page, /^Takings by month/);
  await expectDrawn(byMonth);
  await expect(byMonth.getByRole('table').getByRole('row')).toHaveCount(13);

  // Subscriptions: the period stays; counts by status and plan are drawn.
  await page
    .getByRole('navigation', { name: 'Statistics' })
    .getByRole('link', { name: 'Subscriptions' })
    .click();
  await expect(page).toHaveURL(/\/en\/admin\/statistics\/subscriptions\/overview\?range=12m/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Subscriptions');
  await expectDrawn(figure(page, 'Subscriptions by status'));
  await expectDrawn(figure(page, 'Running subscriptions by plan'));
  const mrr = figure(page, /^Monthly recurring revenue/);
  await expectDrawn(mrr, '.recharts-line-curve');
  await expect(mrr.getByRole('table').getByRole('row')).toHaveCount(13);
  await expectDrawn(figure(page, 'Orders and first payments'));

  // Analytics: where the buyers are.
  await page
    .getByRole('navigation', { name: 'Statistics' })
    .getByRole('link', { name: 'Analytics' })
    .click();
  await expectDrawn(figure(page, 'Payments by country'));
  await expect(
    page.getByRole('table', { name: 'Payments per currency' }).getByRole('row').nth(1),
  ).toBeVisible();

  // The screens and recharts came in the admin's chunks, which a customer never loads.
  expect(adminChunks.some((url) => /admin-statistics-screens/.test(url))).toBe(true);
});

test("an author's dashboard offers the content areas only", async ({ page }) => {
  const adminCalls: string[] = [];
  const chunks: string[] = [];
  page.on('response', (response) => {
    if (/\/api\/dashboard\/v1\/(statistics|dashboard|invoices)/.test(response.url())) {
      adminCalls.push(`${response.status()} ${response.url()}`);
    }
  });
  page.on('request', (request) => {
    if (/\/assets\/.*\.js$/.test(request.url())) chunks.push(request.url());
  });
  await signIn(page, DEMO.author.email, DEMO.author.password);
  await expect(page).toHaveURL(/\/en\/admin\/dashboard$/);
  const areas = page.getByRole('region', { name: 'Go to' });
  await expect(areas.getByRole('link', { name: 'Blog posts' })).toBeVisible();
  await expect(areas.getByRole('link', { name: 'Earnings' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Revenue' })).toHaveCount(0);
  expect(adminCalls).toEqual([]);
  // Where staff land, the charts' code does not come along.
  expect(chunks.some((url) => /admin-dashboard-page/.test(url))).toBe(true);
  expect(chunks.filter((url) => /statistics-screens|recharts/.test(url))).toEqual([]);
  // The statistics screens are not theirs.
  await page.goto('/en/admin/statistics/earnings/overview');
  await expect(page).toHaveURL('/en/page-not-found');
  expect(adminCalls).toEqual([]);
});
