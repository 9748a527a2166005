import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_BASES } from '#shared/api-bases.ts';
import { getSession } from './session/session-store.ts';
import { renderApp, testUser } from './test/render-app.tsx';
import { homeRoute } from './test/site-page.ts';
import { errorResponse, jsonResponse, stubFetch } from './test/stub-fetch.ts';

const CURRENT = `${API_BASES.account}/subscriptions/current`;

afterEach(() => {
  vi.unstubAllGlobals();
});

// §2 routes that await the current subscription, when fetching it fails (§8).
describe('a failed current-subscription fetch', () => {
  it('still opens the home, with the subscription unknown and a danger toast', async () => {
    const seen = stubFetch({ [CURRENT]: () => errorResponse(503, 'unavailable'), ...homeRoute });
    const { screen, router } = await renderApp('/en', testUser(), undefined, {
      subscription: undefined,
    });
    await expect.element(screen.getByRole('heading', { level: 1 })).toBeVisible();
    expect(router.state.location.pathname).toBe('/en');
    await expect
      .element(screen.getByText('The service is temporarily unavailable.', { exact: false }))
      .toBeVisible();
    expect(seen.map((request) => new URL(request.url).pathname)).toContain(CURRENT);
    expect(getSession().subscription).toBeUndefined();
  });

  it('shows a billing route an error state whose retry opens it once the fetch works', async () => {
    let up = false;
    stubFetch({
      [CURRENT]: () =>
        up
          ? jsonResponse(200, {
              subscription: { status: 'active', service_id: 1, onetime: false },
              last_invoice_finalizing: false,
            })
          : errorResponse(502, 'unavailable'),
    });
    const { screen, router } = await renderApp('/en/billing/membership-v2', testUser(), undefined, {
      subscription: undefined,
    });
    const state = screen.getByTestId('subscription-unavailable');
    await expect.element(state).toBeVisible();
    await expect
      .element(state.getByRole('heading', { level: 1 }))
      .toHaveTextContent('We could not load your subscription');
    // Not bounced to the order page or the 404, as "no subscription" would have done.
    expect(router.state.location.pathname).toBe('/en/billing/membership-v2');

    await state.getByRole('button', { name: 'Try again' }).click();
    await expect.element(state).toBeVisible();
    expect(router.state.location.pathname).toBe('/en/billing/membership-v2');

    up = true;
    await state.getByRole('button', { name: 'Try again' }).click();
    await expect
      .element(screen.getByRole('heading', { level: 1, name: 'Membership' }))
      .toBeVisible();
    expect(screen.getByTestId('subscription-unavailable').elements()).toHaveLength(0);
    expect(router.state.location.pathname).toBe('/en/billing/membership-v2');
    expect(getSession().subscription?.current).toMatchObject({ status: 'active' });
  });

  it('lets the billing rule decide once it loads: no subscription goes to the order page', async () => {
    let up = false;
    stubFetch({
      [CURRENT]: () =>
        up
          ? jsonResponse(200, { subscription: null, last_invoice_finalizing: false })
          : Promise.reject(new TypeError('Failed to fetch')),
    });
    const { screen, router } = await renderApp('/en/billing/membership-v2', testUser(), undefined, {
      subscription: undefined,
    });
    await expect.element(screen.getByTestId('subscription-unavailable')).toBeVisible();
    await expect
      .element(screen.getByText('Could not reach the server.', { exact: false }))
      .toBeVisible();
    up = true;
    await screen.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => router.state.location.pathname).toBe('/en/billing/order-v2');
  });
});
