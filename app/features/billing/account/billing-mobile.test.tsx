import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { card, invoice, invoicePage, product, subscriptionDetail } from './billing-test-data.ts';

// §9 mobile below 768 px: every billing screen fits a 390 px phone without sideways scrolling
// (tables scroll inside their own box at most; the page itself never does).

beforeEach(async () => {
  await page.viewport(390, 844);
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await page.viewport(1280, 800);
});

type Status = 'on_hold' | 'active';
const sessionFor = (status: Status) => ({
  subscription: {
    current: { status, service_id: 1 as const, onetime: false },
    lastInvoiceFinalizing: false,
  },
});

const LONG = 'VPN Premium with Dedicated IP and Family Sharing for six devices';

function everything(status: Status) {
  const detail = subscriptionDetail({
    status,
    grace_until: '2026-12-08T00:00:00.000Z',
    plan: { ...subscriptionDetail().plan, name: LONG },
    subscription_items: [
      { product_id: 11, name: LONG, amount: 12999, quantity: 1, additional: false },
      { product_id: 14, name: 'Dedicated IP address', amount: 499, quantity: 2, additional: true },
    ],
  });
  const invoices = [
    invoice(21, {
      status: 'uncollectible',
      total: 1234567,
      amount_paid: 0,
      description: LONG,
      last_failure: 'Your card has insufficient funds to complete this purchase.',
    }),
    invoice(20, { amount_refunded: 999 }),
    invoice(19),
  ];
  stubFetch({
    [billingEndpoints.subscription.url]: () => jsonResponse(200, { subscription: detail }),
    [billingEndpoints.invoices.url]: () =>
      jsonResponse(200, invoicePage(invoices, { total: 30, last_page: 3 })),
    [billingEndpoints.cards.url]: () =>
      jsonResponse(200, {
        items: [
          card(),
          card({ card_id: 'c2', brand: 'amex', last4: '0005', default: false, exp_year: 2020 }),
        ],
      }),
    [billingEndpoints.billingAddress.url]: () =>
      jsonResponse(200, {
        billing_address: {
          name: 'Ann Lee',
          company: '',
          line1: '',
          line2: '',
          city: '',
          postal_code: '',
          region: '',
          country: '',
          vat_id: '',
        },
      }),
    [billingEndpoints.services.url]: () => jsonResponse(200, { items: [] }),
    [billingEndpoints.products.url]: () =>
      jsonResponse(200, {
        currency: 'USD',
        items: [product(11), product(12, { name: LONG, description: LONG, amount: 129999 })],
      }),
  });
}

const overflow = () => document.documentElement.scrollWidth - window.innerWidth;

describe('billing on a 390 px phone', () => {
  it.each<[string, string, Status]>([
    ['/en/billing/membership-v2', 'plan-name', 'on_hold'],
    ['/en/billing/invoices', 'invoice', 'on_hold'],
    ['/en/billing/payment-methods', 'card', 'on_hold'],
    ['/en/billing/fix-payment-method', 'saved-card', 'on_hold'],
    ['/en/billing/upgrade-v2', 'plan-option', 'active'],
  ])('%s does not scroll sideways', async (path, testId, status) => {
    everything(status);
    const { screen } = await renderApp(path, testUser(), undefined, sessionFor(status));
    await expect.element(screen.getByTestId(testId).first()).toBeVisible();
    expect(overflow()).toBeLessThanOrEqual(0);
  });
});
