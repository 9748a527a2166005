import { afterEach, describe, expect, it, vi } from 'vitest';
import { type DashboardSummary, dashboardEndpoints } from '#shared/contracts/admin/dashboard.ts';
import { type AdminInvoice, invoiceEndpoints } from '#shared/contracts/admin/invoices.ts';
import { type EarningsResponse, statisticsEndpoints } from '#shared/contracts/admin/statistics.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { isoDay } from '../statistics/date-range.ts';

// §2 /admin/dashboard behind the real guards: the admin's figures from the statistics,
// dashboard and invoices calls; an author's links without a single admin-only call.
afterEach(() => vi.unstubAllGlobals());

const ADMIN_ONLY = [
  statisticsEndpoints.earnings.url,
  dashboardEndpoints.summary.url,
  invoiceEndpoints.latest.url,
] as string[];

const today = isoDay(new Date());
const takings = { gross: 0, refunds: 0, net: 0, payments: 0 };
const earnings: EarningsResponse = {
  currencies: [
    {
      currency: 'USD',
      gross: 9995,
      refunds: 1999,
      net: 7996,
      payments: 5,
      series: [{ ...takings, period: today, gross: 3998, net: 3998, payments: 2 }],
    },
    { currency: 'EUR', gross: 1799, refunds: 0, net: 1799, payments: 1, series: [] },
  ],
  by_gateway: [],
};
const summary: DashboardSummary = {
  subscriptions: [
    { status: 'active', count: 42 },
    { status: 'paused', count: 0 },
    { status: 'canceled', count: 3 },
    { status: 'on_hold', count: 1 },
    { status: 'failed', count: 0 },
  ],
  new_customers: { today: 2, month: 17 },
  attention: {
    subscriptions: 1,
    invoices: 1,
    latest: [
      {
        invoice_id: 7,
        subscription_id: 3,
        customer: { id: 31, email: 'late@example.com' },
        gateway: 'sandbox',
        amount: 999,
        currency: 'USD',
        reason: 'Your card was declined.',
        issued_at: '2026-11-20T10:00:00.000Z',
      },
    ],
  },
};
const invoice: AdminInvoice = {
  invoice_id: 8,
  number: 'INV-2026-000008',
  status: 'paid',
  gateway: 'sandbox',
  service_id: 1,
  currency: 'USD',
  subtotal: 1999,
  discount_total: 0,
  total: 1999,
  amount_paid: 1999,
  amount_refunded: 0,
  country: 'NL',
  customer: { id: 32, email: 'buyer@example.com', name: null },
  subscription_id: 4,
  description: '1 month',
  coupon_code: null,
  last_failure: null,
  issued_at: '2026-11-21T10:00:00.000Z',
  paid_at: '2026-11-21T10:00:00.000Z',
};

describe('the admin dashboard', () => {
  it("shows an admin today's and this month's revenue per currency and what needs attention", async () => {
    const seen = stubFetch({
      [statisticsEndpoints.earnings.url]: () => jsonResponse(200, earnings),
      [dashboardEndpoints.summary.url]: () => jsonResponse(200, summary),
      [invoiceEndpoints.latest.url]: () => jsonResponse(200, { items: [invoice] }),
    });
    const { screen } = await renderApp('/en/admin/dashboard', testUser({ id: 9, role: 'ADMIN' }));
    await expect
      .element(screen.getByRole('heading', { name: 'Dashboard', level: 1 }))
      .toBeVisible();
    const usd = screen.getByRole('listitem').filter({ hasText: 'USD' }).first();
    await expect.element(usd).toHaveTextContent(/Today\s*\$39\.98/);
    await expect.element(usd).toHaveTextContent(/This month\s*\$99\.95/);
    // Two currencies are two cards, never one sum.
    await expect.element(screen.getByText('€17.99').first()).toBeVisible();
    await expect.element(screen.getByText(/never added together/)).toBeVisible();
    await expect.element(screen.getByText('42', { exact: true })).toBeVisible();
    await expect.element(screen.getByText('17', { exact: true })).toBeVisible();
    await expect
      .element(screen.getByRole('link', { name: 'late@example.com' }))
      .toHaveAttribute('href', '/en/admin/customers/31');
    await expect.element(screen.getByText('INV-2026-000008')).toBeVisible();
    const asked = new URL(
      seen.find((request) => request.url.includes(statisticsEndpoints.earnings.url))?.url ?? '',
    );
    // The month so far, by day: today's figure is its last day.
    expect(asked.searchParams.get('to')).toBe(today);
    expect(asked.searchParams.get('from')).toBe(`${today.slice(0, 8)}01`);
    await expect.element(screen.getByRole('link', { name: 'Export invoices' })).toBeVisible();
  });

  it('gives an author the content areas only, and asks nothing of the admin calls', async () => {
    const seen = stubFetch({});
    const { screen } = await renderApp('/en/admin/dashboard', testUser({ id: 5, role: 'AUTHOR' }));
    await expect
      .element(screen.getByRole('heading', { name: 'Dashboard', level: 1 }))
      .toBeVisible();
    const areas = screen.getByRole('region', { name: 'Go to' });
    await expect.element(areas.getByRole('link', { name: 'Blog posts' })).toBeVisible();
    expect(areas.getByRole('link', { name: 'Customers' }).elements()).toHaveLength(0);
    expect(areas.getByRole('link', { name: 'Export invoices' }).elements()).toHaveLength(0);
    expect(screen.getByText('Revenue').elements()).toHaveLength(0);
    expect(seen.filter((request) => ADMIN_ONLY.includes(new URL(request.url).pathname))).toEqual(
      [],
    );
  });
});
