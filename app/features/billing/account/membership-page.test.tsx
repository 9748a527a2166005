import { afterEach, describe, expect, it, vi } from 'vitest';
import { billingEndpoints, type SubscriptionDetail } from '#shared/contracts/billing.ts';
import { currentSubscriptionEndpoint } from '#shared/contracts/current-subscription.ts';
import { formatMoney } from '#shared/money.ts';
import type { SubscriptionValue } from '#shared/subscription/actions.ts';
import { refreshSubscription } from '../../../session/current-subscription.ts';
import { getSession } from '../../../session/session-store.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { invoice, invoicePage, subscriptionDetail } from './billing-test-data.ts';

afterEach(() => vi.unstubAllGlobals());

/** A change made elsewhere (a renewal, a webhook, another tab). */
let changeServerSide: (next: SubscriptionDetail) => void = () => {};

const longDate = (iso: string) =>
  new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(new Date(iso));
const PERIOD_END = '2026-12-01T00:00:00.000Z';

function sessionWith(subscription: SubscriptionDetail) {
  const current: SubscriptionValue = {
    status: subscription.status,
    service_id: subscription.service_id,
    onetime: subscription.onetime,
  };
  return { subscription: { current, lastInvoiceFinalizing: false } };
}

/** The billing server for one subscription; `after` is what an action answers. */
function billingServer(initial: SubscriptionDetail, after?: SubscriptionDetail) {
  let current = initial;
  changeServerSide = (next) => {
    current = next;
  };
  const answer = () => {
    if (after) current = after;
    return jsonResponse(200, { subscription: current });
  };
  return stubFetch({
    [billingEndpoints.subscription.url]: () => jsonResponse(200, { subscription: current }),
    [billingEndpoints.invoices.url]: (request) => {
      const perPage = Number(new URL(request.url).searchParams.get('per_page'));
      const items = [1, 2, 3, 4].map((id) => invoice(10 - id)).slice(0, perPage);
      return jsonResponse(200, invoicePage(items, { per_page: perPage, total: 4, last_page: 2 }));
    },
    [billingEndpoints.cancel.url]: answer,
    [billingEndpoints.resume.url]: answer,
    [billingEndpoints.pause.url]: answer,
    [billingEndpoints.continue.url]: answer,
    [currentSubscriptionEndpoint.url]: () =>
      jsonResponse(200, {
        subscription: {
          status: current.status,
          service_id: current.service_id,
          onetime: current.onetime,
        },
        last_invoice_finalizing: false,
      }),
  });
}

describe('membership', () => {
  it('shows the plan, its status, renewal, price, card and the latest 3 invoices', async () => {
    const detail = subscriptionDetail();
    const seen = billingServer(detail);
    const { screen } = await renderApp(
      '/en/billing/membership-v2',
      testUser(),
      undefined,
      sessionWith(detail),
    );
    await expect.element(screen.getByTestId('plan-name')).toHaveTextContent('VPN Monthly');
    await expect.element(screen.getByTestId('subscription-status')).toHaveTextContent('Active');
    await expect
      .element(screen.getByTestId('period-line'))
      .toHaveTextContent(`Renews on ${longDate(PERIOD_END)}`);
    await expect
      .element(screen.getByTestId('plan-price'))
      .toHaveTextContent(`${formatMoney({ amount: 999, currency: 'USD' }, 'en')} per month`);
    await expect.element(screen.getByTestId('payment-method')).toHaveTextContent('Visa •••• 4242');
    await expect.element(screen.getByTestId('payment-method')).toHaveTextContent('04/2031');

    const latest = screen.getByRole('table', { name: 'Latest invoices' });
    await expect.element(latest).toBeVisible();
    expect(latest.getByTestId('invoice').elements()).toHaveLength(3);
    await expect
      .element(screen.getByRole('link', { name: 'All invoices' }))
      .toHaveAttribute('href', '/en/billing/invoices');
    const invoiceQuery = seen
      .filter((request) => request.url.includes(billingEndpoints.invoices.url))
      .map((request) => new URL(request.url).searchParams.get('per_page'));
    expect(invoiceQuery).toEqual(['3']);
    // §4 active on card: upgrade, cancel and pause are offered; resume and continue are not.
    await expect.element(screen.getByRole('link', { name: 'Upgrade' })).toBeVisible();
    await expect.element(screen.getByRole('button', { name: 'Pause subscription' })).toBeVisible();
    await expect
      .element(screen.getByRole('button', { name: 'Resume subscription' }))
      .not.toBeInTheDocument();
  });

  it('asks before cancelling, then shows when it ends and offers to resume', async () => {
    const detail = subscriptionDetail();
    const seen = billingServer(detail, { ...detail, cancel_at_period_end: true });
    const { screen } = await renderApp(
      '/en/billing/membership-v2',
      testUser(),
      undefined,
      sessionWith(detail),
    );
    await screen.getByRole('button', { name: 'Cancel subscription' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Cancel your subscription?' });
    await expect.element(dialog).toHaveTextContent(`until the end of the period you paid for`);
    await expect.element(dialog).toHaveTextContent(longDate(PERIOD_END));
    expect(seen.some((request) => request.url.includes(billingEndpoints.cancel.url))).toBe(false);

    await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect.element(dialog).not.toBeInTheDocument();
    await expect
      .element(screen.getByTestId('period-line'))
      .toHaveTextContent(`Ends on ${longDate(PERIOD_END)}`);
    await expect.element(screen.getByRole('button', { name: 'Resume subscription' })).toBeVisible();
    await expect
      .element(screen.getByRole('button', { name: 'Cancel subscription' }))
      .not.toBeInTheDocument();
    await expect
      .element(screen.getByText('Your subscription is canceled and will not renew.'))
      .toBeVisible();
    const cancel = seen.find((request) => request.url.includes(billingEndpoints.cancel.url));
    expect(cancel?.method).toBe('POST');
    // The session's subscription (guards, menus) is fetched anew.
    await vi.waitFor(() =>
      expect(seen.some((request) => request.url.endsWith(currentSubscriptionEndpoint.url))).toBe(
        true,
      ),
    );
  });

  it('resumes a subscription set to cancel', async () => {
    const detail = subscriptionDetail({ cancel_at_period_end: true });
    billingServer(detail, { ...detail, cancel_at_period_end: false });
    const { screen } = await renderApp(
      '/en/billing/membership-v2',
      testUser(),
      undefined,
      sessionWith(detail),
    );
    await expect
      .element(screen.getByTestId('period-line'))
      .toHaveTextContent(`Ends on ${longDate(PERIOD_END)}`);
    await screen.getByRole('button', { name: 'Resume subscription' }).click();
    await expect
      .element(screen.getByTestId('period-line'))
      .toHaveTextContent(`Renews on ${longDate(PERIOD_END)}`);
    await expect.element(screen.getByText('Your subscription will renew as before.')).toBeVisible();
    await expect.element(screen.getByRole('button', { name: 'Cancel subscription' })).toBeVisible();
  });

  it('pauses after confirming, then offers to continue', async () => {
    const detail = subscriptionDetail();
    billingServer(detail, { ...detail, status: 'paused', paused_at: '2026-11-20T00:00:00.000Z' });
    const { screen } = await renderApp(
      '/en/billing/membership-v2',
      testUser(),
      undefined,
      sessionWith(detail),
    );
    await screen.getByRole('button', { name: 'Pause subscription' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Pause your subscription?' });
    await dialog.getByRole('button', { name: 'Pause subscription' }).click();
    await expect.element(screen.getByTestId('subscription-status')).toHaveTextContent('Paused');
    await expect
      .element(screen.getByRole('button', { name: 'Continue subscription' }))
      .toBeVisible();
  });

  it('warns of a payment on hold, with access until the grace end and the way to fix it', async () => {
    const grace = '2026-12-08T00:00:00.000Z';
    const detail = subscriptionDetail({ status: 'on_hold', grace_until: grace });
    billingServer(detail);
    const { screen } = await renderApp(
      '/en/billing/membership-v2',
      testUser(),
      undefined,
      sessionWith(detail),
    );
    await expect.element(screen.getByTestId('subscription-status')).toHaveTextContent('On hold');
    await expect
      .element(screen.getByTestId('period-line'))
      .toHaveTextContent(`Access until ${longDate(grace)}`);
    const warning = screen.getByTestId('payment-warning');
    await expect.element(warning).toHaveTextContent(longDate(grace));
    await expect
      .element(warning.getByRole('link', { name: 'Fix payment method' }))
      .toHaveAttribute('href', '/en/billing/fix-payment-method');
  });

  it.each([
    [
      'expired',
      { status: 'expired', ended_at: '2026-11-15T00:00:00.000Z' },
      'Ended on',
      'Reactivate',
    ],
    [
      'bonus',
      { service_id: 5, payment_method: { type: 'bonus', card: null } },
      // Bonus days are never charged: they end rather than renew.
      'Ends on',
      'Upgrade your bonus plan',
    ],
  ] as const)('offers the §4 action of a %s subscription', async (_, overrides, line, action) => {
    const detail = subscriptionDetail(overrides as Partial<SubscriptionDetail>);
    billingServer(detail);
    const { screen } = await renderApp(
      '/en/billing/membership-v2',
      testUser(),
      undefined,
      sessionWith(detail),
    );
    await expect.element(screen.getByTestId('period-line')).toHaveTextContent(line);
    await expect.element(screen.getByRole('link', { name: action })).toBeVisible();
    // Neither is a card subscription to pause, nor has an upgrade (§4).
    await expect
      .element(screen.getByRole('button', { name: 'Pause subscription' }))
      .not.toBeInTheDocument();
    await expect
      .element(screen.getByRole('link', { name: 'Upgrade', exact: true }))
      .not.toBeInTheDocument();
  });

  it('follows a change made elsewhere once the subscription is refreshed (a live event)', async () => {
    const detail = subscriptionDetail();
    billingServer(detail);
    const { screen } = await renderApp(
      '/en/billing/membership-v2',
      testUser(),
      undefined,
      sessionWith(detail),
    );
    await expect.element(screen.getByTestId('subscription-status')).toHaveTextContent('Active');
    changeServerSide({ ...detail, status: 'on_hold', grace_until: '2026-12-08T00:00:00.000Z' });
    // What the realtime bridge runs on Users\SubscriptionUpdated.
    await refreshSubscription();
    await expect.element(screen.getByTestId('subscription-status')).toHaveTextContent('On hold');
    await expect.element(screen.getByTestId('payment-warning')).toBeVisible();
    expect(getSession().subscription?.current?.status).toBe('on_hold');
  });
});
