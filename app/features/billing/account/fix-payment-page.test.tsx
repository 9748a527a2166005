import { afterEach, describe, expect, it, vi } from 'vitest';
import { BILLING_MESSAGES, billingEndpoints } from '#shared/contracts/billing.ts';
import { currentSubscriptionEndpoint } from '#shared/contracts/current-subscription.ts';
import { formatMoney } from '#shared/money.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { card, invoice, invoicePage, subscriptionDetail } from './billing-test-data.ts';

afterEach(() => vi.unstubAllGlobals());

const GRACE = '2026-12-08T00:00:00.000Z';
const OPEN = invoice(21, {
  status: 'open',
  total: 999,
  amount_paid: 0,
  paid_at: null,
  issued_at: '2026-12-01T00:00:00.000Z',
  last_failure: 'Your card has insufficient funds.',
});
const EXPIRED = card({
  card_id: 'card_old',
  brand: 'mastercard',
  last4: '4444',
  exp_month: 1,
  exp_year: 2020,
  default: false,
});
const SESSION = {
  subscription: {
    current: { status: 'on_hold', service_id: 1, onetime: false },
    lastInvoiceFinalizing: false,
  },
} as const;

const TOKENIZE = '/sandbox/v1/tokens';
const CARD_SERVICE = {
  service_id: 1,
  payment_method_type: 'card',
  checkout: 'card_form',
  tokenize_url: TOKENIZE,
  google_pay: false,
  apple_pay: false,
  crypto_processing: false,
};

function fixServer(
  fix: (body: Record<string, unknown>) => Response | Promise<Response>,
  tokens: string[] = [],
) {
  let status: 'on_hold' | 'active' = 'on_hold';
  const bodies: Record<string, unknown>[] = [];
  stubFetch({
    [TOKENIZE]: () => {
      tokens.push(`tok_${tokens.length + 1}`);
      return jsonResponse(200, { id: tokens.at(-1) });
    },
    [billingEndpoints.subscription.url]: () =>
      jsonResponse(200, { subscription: subscriptionDetail({ status, grace_until: GRACE }) }),
    [billingEndpoints.invoices.url]: () =>
      jsonResponse(200, invoicePage(status === 'on_hold' ? [OPEN, invoice(20)] : [invoice(20)])),
    [billingEndpoints.cards.url]: () => jsonResponse(200, { items: [card(), EXPIRED] }),
    [billingEndpoints.services.url]: () => jsonResponse(200, { items: [CARD_SERVICE] }),
    [billingEndpoints.fix.url]: async (request) => {
      const body = (await request.json()) as Record<string, unknown>;
      bodies.push(body);
      const answer = await fix(body);
      if (answer.ok) status = 'active';
      return answer;
    },
    [currentSubscriptionEndpoint.url]: () =>
      jsonResponse(200, {
        subscription: { status, service_id: 1, onetime: false },
        last_invoice_finalizing: false,
      }),
  });
  return bodies;
}

const PAID = { status: 'completed', subscription_id: 7, invoice_id: 21, redirect_url: null };

const usd = (amount: number) => formatMoney({ amount, currency: 'USD' }, 'en');
const longDate = (iso: string) =>
  new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(new Date(iso));

describe('fix payment method', () => {
  it('explains the failed payment and pays it with the saved default card', async () => {
    const bodies = fixServer(() =>
      jsonResponse(200, {
        status: 'completed',
        subscription_id: 7,
        invoice_id: 21,
        redirect_url: null,
      }),
    );
    const { screen, router } = await renderApp(
      '/en/billing/fix-payment-method',
      testUser(),
      undefined,
      SESSION,
    );
    const failed = screen.getByTestId('failed-payment');
    await expect
      .element(failed)
      .toHaveTextContent(`payment of ${usd(999)} from ${longDate(OPEN.issued_at)}`);
    await expect.element(failed).toHaveTextContent('Your card has insufficient funds.');
    await expect.element(failed).toHaveTextContent(`access until ${longDate(GRACE)}`);
    // The default card is chosen; an expired one cannot be.
    await expect.element(screen.getByRole('radio', { name: /Visa •••• 4242/ })).toBeChecked();
    await expect
      .element(screen.getByRole('radio', { name: /Mastercard •••• 4444/ }))
      .toBeDisabled();

    await screen.getByRole('button', { name: `Pay ${usd(999)}` }).click();
    await vi.waitFor(() =>
      expect(router.state.location.pathname).toBe('/en/billing/membership-v2'),
    );
    expect(bodies).toEqual([{ card_id: 'card_visa', idempotency_key: expect.any(String) }]);
    await expect
      .element(screen.getByText('Payment received, your subscription is active again.'))
      .toBeVisible();
    await expect.element(screen.getByTestId('subscription-status')).toHaveTextContent('Active');
  });

  it('shows a decline under the card choice and stays', async () => {
    const bodies = fixServer(() =>
      jsonResponse(422, {
        code: 'validation_failed',
        errors_validation: { card: [BILLING_MESSAGES.insufficientFunds] },
        errors_info: [],
      }),
    );
    const { screen, router } = await renderApp(
      '/en/billing/fix-payment-method',
      testUser(),
      undefined,
      SESSION,
    );
    await screen.getByRole('button', { name: `Pay ${usd(999)}` }).click();
    await expect
      .element(screen.getByRole('group', { name: 'Pay with' }))
      .toHaveAccessibleDescription('Your card has insufficient funds. Please try another card.');
    expect(router.state.location.pathname).toBe('/en/billing/fix-payment-method');
    expect(bodies).toHaveLength(1);
  });

  it('offers the card form for a new card', async () => {
    fixServer(() => jsonResponse(500, { code: 'internal' }));
    const { screen } = await renderApp(
      '/en/billing/fix-payment-method',
      testUser(),
      undefined,
      SESSION,
    );
    await screen.getByRole('radio', { name: 'A new card' }).click();
    await expect.element(screen.getByLabelText('Card number')).toBeVisible();
  });

  it('retries a new card after no answer as the same request: same key, same token', async () => {
    const tokens: string[] = [];
    let calls = 0;
    const bodies = fixServer(() => {
      calls += 1;
      if (calls === 1) throw new TypeError('Failed to fetch');
      return jsonResponse(200, PAID);
    }, tokens);
    const { screen, router } = await renderApp(
      '/en/billing/fix-payment-method',
      testUser(),
      undefined,
      SESSION,
    );
    await screen.getByRole('radio', { name: 'A new card' }).click();
    await screen.getByLabelText('Card number').fill('4242424242424242');
    await screen.getByLabelText('Expiry (MM/YY)').fill('1240');
    await screen.getByLabelText('CVC').fill('123');
    await screen.getByLabelText('Name on card').fill('Ann Lee');
    const pay = screen.getByRole('button', { name: `Pay ${usd(999)}` });
    await pay.click();
    await expect
      .element(screen.getByText('Could not reach the server. Check your connection and try again.'))
      .toBeVisible();
    await pay.click();
    await vi.waitFor(() =>
      expect(router.state.location.pathname).toBe('/en/billing/membership-v2'),
    );
    expect(tokens).toEqual(['tok_1']);
    expect(bodies).toEqual([
      { token: 'tok_1', idempotency_key: expect.any(String) },
      { token: 'tok_1', idempotency_key: bodies[0]?.idempotency_key },
    ]);
  });

  it('says so when the server refuses the key as used for another payment, then starts anew', async () => {
    let calls = 0;
    const bodies = fixServer(() => {
      calls += 1;
      return calls === 1
        ? jsonResponse(400, {
            code: 'idempotency_error',
            errors_info: ['errors.idempotency_error'],
          })
        : jsonResponse(200, PAID);
    });
    const { screen, router } = await renderApp(
      '/en/billing/fix-payment-method',
      testUser(),
      undefined,
      SESSION,
    );
    const pay = screen.getByRole('button', { name: `Pay ${usd(999)}` });
    await pay.click();
    await expect
      .element(
        screen.getByText(
          'This payment was already sent with other details. Check your billing, then try again.',
        ),
      )
      .toBeVisible();
    await pay.click();
    await vi.waitFor(() =>
      expect(router.state.location.pathname).toBe('/en/billing/membership-v2'),
    );
    expect(bodies).toHaveLength(2);
    expect(bodies[1]?.idempotency_key).not.toBe(bodies[0]?.idempotency_key);
  });
});
