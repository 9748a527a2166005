import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SubscriptionDetail } from '#shared/contracts/billing.ts';
import { formatMoney } from '#shared/money.ts';
import { resetSession, updateSession } from '../../../session/session-store.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { errorResponse, jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';

const DETAIL = '/api/account/v1/billing/subscriptions/current/detail';

const SUBSCRIPTION: SubscriptionDetail = {
  subscription_id: 5,
  status: 'active',
  service_id: 1,
  onetime: false,
  exists: true,
  payment_method: { type: 'card', card: null },
  plan: { plan_id: 'standard', product_id: 4, name: '1 year', interval: 'year', interval_count: 1 },
  subscription_items: [],
  currency: 'USD',
  amount: 7188,
  current_period_start: '2026-11-24T00:00:00.000Z',
  current_period_end: '2027-11-24T12:00:00.000Z',
  cancel_at_period_end: false,
  paused_at: null,
  grace_until: null,
  ended_at: null,
};

const SESSION = {
  subscription: { current: null, lastInvoiceFinalizing: false },
  accessPages: ['order-received.thanks'],
};

afterEach(() => {
  // Empties the query cache (it follows the signed-in user) between tests.
  updateSession({ user: testUser({ id: 999 }) });
  resetSession();
  vi.unstubAllGlobals();
});

describe('thanks page', () => {
  it('waits for the subscription the webhook has not brought yet, then shows it', async () => {
    let calls = 0;
    stubFetch({
      [DETAIL]: () => {
        calls += 1;
        return calls < 3
          ? errorResponse(404, 'not_found')
          : jsonResponse(200, { subscription: SUBSCRIPTION });
      },
    });
    const { screen } = await renderApp(
      '/en/order-received/thanks?invoice=77',
      testUser({ id: 41 }),
      undefined,
      SESSION,
    );
    await expect
      .element(screen.getByRole('heading', { level: 1 }))
      .toHaveTextContent('Thank you for your order');
    await expect.element(screen.getByText('Confirming your payment…')).toBeVisible();
    await expect
      .element(screen.getByTestId('thanks-plan'), { timeout: 5_000 })
      .toHaveTextContent('1 year');
    expect(calls).toBe(3);
    const date = new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(
      new Date(SUBSCRIPTION.current_period_end ?? ''),
    );
    await expect
      .element(screen.getByTestId('thanks-renewal'))
      .toHaveTextContent(`${date}, ${formatMoney({ amount: 7188, currency: 'USD' }, 'en')}`);
    await expect
      .element(screen.getByRole('link', { name: 'Go to membership' }))
      .toHaveAttribute('href', '/en/billing/membership-v2');
    await expect
      .element(screen.getByRole('link', { name: 'View invoices' }))
      .toHaveAttribute('href', '/en/billing/invoices');
    await expect
      .element(screen.getByRole('link', { name: 'Download the invoice' }))
      .toHaveAttribute('href', '/api/account/v1/billing/invoices/77/pdf');
    await expect.element(screen.getByText('Get the apps')).toBeVisible();
  });

  it('says the bank did not confirm, with the way back to the order', async () => {
    stubFetch({ [DETAIL]: () => jsonResponse(200, { subscription: SUBSCRIPTION }) });
    sessionStorage.setItem('order-choice', JSON.stringify({ plan: 4, addon: true }));
    const { screen } = await renderApp(
      '/en/order-received/thanks?sandbox_payment=pay_1&outcome=failed',
      testUser({ id: 42 }),
      undefined,
      SESSION,
    );
    await expect
      .element(screen.getByRole('heading', { level: 1 }))
      .toHaveTextContent('Your bank did not confirm the payment');
    await expect
      .element(screen.getByRole('link', { name: 'Back to your order' }))
      .toHaveAttribute('href', '/en/billing/order-v2?plan=4&addon=1');
  });
});
