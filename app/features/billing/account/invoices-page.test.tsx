import { afterEach, describe, expect, it, vi } from 'vitest';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { formatMoney } from '#shared/money.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { invoice, invoicePage } from './billing-test-data.ts';

afterEach(() => vi.unstubAllGlobals());

const PER_PAGE = 10;
const TOTAL = 13;

function invoicesServer(total: number) {
  return stubFetch({
    [billingEndpoints.invoices.url]: (request) => {
      const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
      const from = (page - 1) * PER_PAGE;
      const items = Array.from({ length: Math.max(0, Math.min(PER_PAGE, total - from)) }, (_, i) =>
        invoice(total - from - i, i === 0 && page === 2 ? { amount_refunded: 500 } : {}),
      );
      return jsonResponse(
        200,
        invoicePage(items, {
          page,
          per_page: PER_PAGE,
          total,
          last_page: Math.max(1, Math.ceil(total / PER_PAGE)),
        }),
      );
    },
  });
}

describe('invoices', () => {
  it('pages through the invoices, each with its PDF link and any refund', async () => {
    const seen = invoicesServer(TOTAL);
    const { screen, router } = await renderApp('/en/billing/invoices', testUser());
    const table = screen.getByRole('table', { name: 'Your invoices, newest first' });
    await expect.element(table.getByTestId('invoice').nth(PER_PAGE - 1)).toBeVisible();
    expect(table.getByTestId('invoice').elements()).toHaveLength(PER_PAGE);
    await expect.element(table.getByRole('columnheader', { name: 'Total' })).toBeVisible();
    const first = table.getByTestId('invoice').first();
    await expect.element(first).toHaveTextContent('2026-000013');
    await expect
      .element(first)
      .toHaveTextContent(formatMoney({ amount: 999, currency: 'USD' }, 'en'));
    await expect.element(first).toHaveTextContent('Paid');
    const pdf = first.getByRole('link', { name: 'Download PDF of invoice 2026-000013' });
    await expect.element(pdf).toHaveAttribute('href', '/api/account/v1/billing/invoices/13/pdf');
    await expect.element(pdf).toHaveAttribute('download');
    await expect.element(screen.getByText('Page 1 of 2 (13 in all)')).toBeVisible();
    await expect.element(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    await screen.getByRole('button', { name: 'Next page' }).click();
    await expect.element(screen.getByText('Page 2 of 2 (13 in all)')).toBeVisible();
    expect(router.state.location.search).toBe('?page=2');
    await expect.element(table.getByTestId('invoice').first()).toHaveTextContent('2026-000003');
    expect(table.getByTestId('invoice').elements()).toHaveLength(3);
    await expect
      .element(table.getByTestId('invoice-refunded'))
      .toHaveTextContent(`Refunded ${formatMoney({ amount: 500, currency: 'USD' }, 'en')}`);
    await expect.element(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    const pages = seen.map((request) => new URL(request.url).searchParams.get('page'));
    expect(pages).toEqual(['1', '2']);
  });

  it('says when there are no invoices yet, with the way to order', async () => {
    invoicesServer(0);
    const { screen } = await renderApp('/en/billing/invoices', testUser());
    await expect.element(screen.getByRole('heading', { name: 'No invoices yet' })).toBeVisible();
    await expect
      .element(screen.getByRole('link', { name: 'Choose a plan' }).last())
      .toHaveAttribute('href', '/en/billing/order-v2');
  });

  it('offers to try again when the list cannot be loaded', async () => {
    let calls = 0;
    stubFetch({
      [billingEndpoints.invoices.url]: () => {
        calls += 1;
        return calls <= 2
          ? jsonResponse(500, { code: 'internal', errors_validation: {}, errors_info: [] })
          : jsonResponse(200, invoicePage([invoice(1)]));
      },
    });
    const { screen } = await renderApp('/en/billing/invoices', testUser());
    // The query retries once on its own, then shows the failure.
    await screen.getByRole('button', { name: 'Try again' }).click();
    await expect.element(screen.getByTestId('invoice')).toHaveTextContent('2026-000001');
  });
});
