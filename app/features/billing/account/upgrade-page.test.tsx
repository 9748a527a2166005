import { afterEach, describe, expect, it, vi } from 'vitest';
import { BILLING_MESSAGES, billingEndpoints } from '#shared/contracts/billing.ts';
import { currentSubscriptionEndpoint } from '#shared/contracts/current-subscription.ts';
import { formatMoney } from '#shared/money.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { goToProvider } from '../order/provider-hop.ts';
import { product, subscriptionDetail } from './billing-test-data.ts';

vi.mock('../order/provider-hop.ts', () => ({ goToProvider: vi.fn() }));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(goToProvider).mockClear();
});

const usd = (amount: number) => formatMoney({ amount, currency: 'USD' }, 'en');
const SESSION = {
  subscription: {
    current: { status: 'active', service_id: 1, onetime: false },
    lastInvoiceFinalizing: false,
  },
} as const;

const PREVIEW = {
  currency: 'USD',
  product: product(12, { name: 'VPN Plus', amount: 1499 }),
  credit: 500,
  charge: 750,
  due: 250,
  next_amount: 1499,
  current_period_end: '2026-12-01T00:00:00.000Z',
};

function upgradeServer(change: (body: Record<string, unknown>) => Response) {
  return stubFetch({
    [billingEndpoints.subscription.url]: () =>
      jsonResponse(200, { subscription: subscriptionDetail() }),
    [billingEndpoints.products.url]: () =>
      jsonResponse(200, {
        currency: 'USD',
        items: [
          product(11, { name: 'VPN Monthly' }),
          product(12, { name: 'VPN Plus', amount: 1499 }),
          product(13, { name: 'VPN Yearly', amount: 9999, interval: 'year' }),
          product(15, { name: 'VPN 3 months once', amount: 2500, onetime: true }),
          product(14, { name: 'Dedicated IP', additional: true }),
        ],
      }),
    [billingEndpoints.changePreview.url]: () => jsonResponse(200, PREVIEW),
    [billingEndpoints.change.url]: async (request) => change(await request.json()),
    [billingEndpoints.invoices.url]: () =>
      jsonResponse(200, {
        items: [],
        controls: { page: 1, per_page: 3, total: 0, last_page: 1 },
      }),
    [currentSubscriptionEndpoint.url]: () =>
      jsonResponse(200, {
        subscription: SESSION.subscription.current,
        last_invoice_finalizing: false,
      }),
  });
}

async function openPreview() {
  const rendered = await renderApp('/en/billing/upgrade-v2', testUser(), undefined, SESSION);
  const { screen } = rendered;
  const options = screen.getByTestId('plan-option');
  await expect.element(options.first()).toBeVisible();
  // The other plans of any period: not the current one, not an addon, not a one-time plan.
  expect(options.elements().map((option) => option.textContent)).toEqual([
    expect.stringContaining('VPN Plus'),
    expect.stringContaining('VPN Yearly'),
  ]);
  await screen.getByRole('radio', { name: /VPN Plus/ }).click();
  await screen.getByRole('button', { name: 'Review the change' }).click();
  await expect.element(screen.getByTestId('preview-due')).toHaveTextContent(usd(250));
  return rendered;
}

describe('upgrade', () => {
  it('shows the proration, then changes the plan once confirmed and goes to membership', async () => {
    const bodies: Record<string, unknown>[] = [];
    const seen = upgradeServer((body) => {
      bodies.push(body);
      return jsonResponse(200, {
        status: 'completed',
        subscription_id: 7,
        invoice_id: 99,
        redirect_url: null,
      });
    });
    const { screen, router } = await openPreview();
    await expect.element(screen.getByTestId('preview-credit')).toHaveTextContent(usd(500));
    await expect.element(screen.getByTestId('preview-charge')).toHaveTextContent(usd(750));
    await expect
      .element(screen.getByTestId('preview-next'))
      .toHaveTextContent(
        `Then ${usd(1499)} per month, from ${new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(new Date(PREVIEW.current_period_end))}`,
      );
    const preview = seen.find((request) =>
      request.url.includes(billingEndpoints.changePreview.url),
    );
    expect(new URL(preview?.url ?? '').searchParams.get('product_id')).toBe('12');
    expect(bodies).toEqual([]);

    await screen.getByRole('button', { name: `Pay ${usd(250)} and change plan` }).click();
    await vi.waitFor(() =>
      expect(router.state.location.pathname).toBe('/en/billing/membership-v2'),
    );
    expect(bodies).toEqual([{ product_id: 12, idempotency_key: expect.any(String) }]);
    expect(bodies[0]?.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    await expect.element(screen.getByText('You are now on VPN Plus.')).toBeVisible();
  });

  it('shows a declined card with the way to payment methods; a new try is a new attempt', async () => {
    const bodies: Record<string, unknown>[] = [];
    upgradeServer((body) => {
      bodies.push(body);
      return jsonResponse(422, {
        code: 'validation_failed',
        errors_validation: { card: [BILLING_MESSAGES.cardDeclined] },
        errors_info: [],
      });
    });
    const { screen } = await openPreview();
    const pay = screen.getByRole('button', { name: `Pay ${usd(250)} and change plan` });
    await pay.click();
    const declined = screen.getByTestId('card-declined');
    await expect
      .element(declined)
      .toHaveTextContent('Your card was declined. Please try another card.');
    await expect
      .element(declined.getByRole('link', { name: 'Manage your payment methods' }))
      .toHaveAttribute('href', '/en/billing/payment-methods');
    await pay.click();
    await vi.waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[0]?.idempotency_key).not.toBe(bodies[1]?.idempotency_key);
  });

  it('leaves for the provider when the bank asks to confirm', async () => {
    upgradeServer(() =>
      jsonResponse(200, {
        status: 'requires_action',
        subscription_id: 7,
        invoice_id: 99,
        redirect_url: 'https://bank.example/3ds?payment=1',
      }),
    );
    const { screen } = await openPreview();
    await screen.getByRole('button', { name: `Pay ${usd(250)} and change plan` }).click();
    await vi.waitFor(() =>
      expect(goToProvider).toHaveBeenCalledWith('https://bank.example/3ds?payment=1'),
    );
  });
});
