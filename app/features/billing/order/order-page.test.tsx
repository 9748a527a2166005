import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import type { AuthUser } from '#shared/contracts/auth-user.ts';
import type { ProductView, QuoteResponse, ServiceView } from '#shared/contracts/billing.ts';
import { formatMoney } from '#shared/money.ts';
import { resetSession, updateSession } from '../../../session/session-store.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { type FetchHandler, jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { goToProvider } from './provider-hop.ts';

vi.mock('./provider-hop.ts', () => ({ goToProvider: vi.fn() }));

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);
const usd = (amount: number) => formatMoney({ amount, currency: 'USD' }, 'en');

const TOKENIZE = '/sandbox/v1/tokens';
const API = {
  services: '/api/public/v1/billing/services',
  products: '/api/public/v1/billing/products',
  quote: '/api/public/v1/billing/quote',
  checkout: '/api/account/v1/billing/subscriptions/create',
  reactivate: '/api/account/v1/billing/subscriptions/reactivate',
  detail: '/api/account/v1/billing/subscriptions/current/detail',
  current: '/api/account/v1/subscriptions/current',
  address: '/api/account/v1/users/billing-address',
} as const;

const SERVICES: ServiceView[] = [
  {
    service_id: 1,
    payment_method_type: 'card',
    checkout: 'card_form',
    tokenize_url: TOKENIZE,
    google_pay: false,
    apple_pay: false,
    crypto_processing: false,
  },
  {
    service_id: 2,
    payment_method_type: 'paypal',
    checkout: 'redirect',
    tokenize_url: null,
    google_pay: false,
    apple_pay: false,
    crypto_processing: false,
  },
];

function product(overrides: Partial<ProductView>): ProductView {
  return {
    product_id: 1,
    service_id: 1,
    plan: 'standard',
    name: 'Monthly',
    description: '',
    amount: 1199,
    amount_old: null,
    currency: 'USD',
    interval: 'month',
    interval_count: 1,
    visible: true,
    disabled: false,
    sort: 1,
    as_monthly_rate: false,
    discounted_badge: false,
    as_most_selected: false,
    additional: false,
    onetime: false,
    includable: false,
    includable_product_id: [],
    additional_product: null,
    family_seats: 0,
    monthly_amount: 1199,
    saving_percent: 0,
    ...overrides,
  };
}

const MONTHLY = product({ product_id: 1, sort: 3 });
const TWO_YEARS = product({
  product_id: 3,
  plan: 'standard',
  name: 'Two years',
  amount: 10776,
  interval: 'year',
  interval_count: 2,
  sort: 0,
  as_monthly_rate: true,
  monthly_amount: 449,
});
const YEARLY = product({
  product_id: 2,
  plan: 'standard',
  name: 'Yearly',
  amount: 7188,
  amount_old: 14388,
  interval: 'year',
  sort: 1,
  as_monthly_rate: true,
  discounted_badge: true,
  as_most_selected: true,
  monthly_amount: 599,
  saving_percent: 50,
  additional_product: 9,
});
const ADDON = product({
  product_id: 9,
  plan: 'dedicated-ip',
  name: 'Dedicated IP',
  amount: 2400,
  interval: 'year',
  additional: true,
  includable: true,
  sort: 9,
});
const PAYPAL_YEARLY = product({ ...YEARLY, product_id: 12, service_id: 2 });

const DECLINED = {
  code: 'validation_failed',
  errors_validation: { card: ['billing_errors.card_declined'] },
  errors_info: [],
};

function quoteFor(body: { product_id: number; addon_ids?: number[]; coupon?: string }) {
  const all = [MONTHLY, YEARLY, ADDON, PAYPAL_YEARLY, TWO_YEARS];
  const lines = [body.product_id, ...(body.addon_ids ?? [])].map((id) => {
    const item = all.find((p) => p.product_id === id) ?? MONTHLY;
    return { product_id: id, description: item.name, amount: item.amount };
  });
  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
  const percent = body.coupon?.toUpperCase() === 'SAVE20' ? 20 : 0;
  const discount = Math.round((subtotal * percent) / 100);
  const quote: QuoteResponse = {
    currency: 'USD',
    lines,
    subtotal,
    discount,
    tax: 0,
    total: subtotal - discount,
    coupon: percent
      ? {
          code: 'SAVE20',
          name: 'Twenty off',
          percent_off: 20,
          amount_off: null,
          currency: null,
          duration: 'once',
          duration_in_months: null,
        }
      : null,
  };
  return quote;
}

function catalog(overrides: Record<string, FetchHandler> = {}) {
  return stubFetch({
    [API.services]: () => jsonResponse(200, { items: SERVICES }),
    [API.products]: (request) => {
      const service = new URL(request.url).searchParams.get('service_id');
      const items = service === '2' ? [PAYPAL_YEARLY] : [MONTHLY, YEARLY, ADDON, TWO_YEARS];
      return jsonResponse(200, { currency: 'USD', items });
    },
    [API.quote]: async (request) => {
      const body = await request.json();
      if (body.coupon && body.coupon.toUpperCase() !== 'SAVE20') {
        return jsonResponse(422, {
          code: 'validation_failed',
          errors_validation: { coupon: ['billing_errors.coupon_expired'] },
          errors_info: [],
        });
      }
      return jsonResponse(200, quoteFor(body));
    },
    [API.current]: () => jsonResponse(200, { subscription: null, last_invoice_finalizing: false }),
    [API.address]: () =>
      jsonResponse(200, {
        billing_address: {
          name: 'Ann Lee',
          company: '',
          line1: '1 Main St',
          line2: '',
          city: 'Springfield',
          postal_code: '12345',
          region: '',
          country: 'US',
          vat_id: '',
        },
      }),
    [TOKENIZE]: () => jsonResponse(200, { id: 'tok_visa' }),
    [API.checkout]: () =>
      jsonResponse(200, {
        status: 'completed',
        subscription_id: 5,
        invoice_id: 77,
        redirect_url: null,
      }),
    [API.detail]: () =>
      jsonResponse(200, {
        subscription: {
          subscription_id: 5,
          status: 'active',
          service_id: 1,
          onetime: false,
          exists: true,
          payment_method: { type: 'card', card: null },
          plan: {
            plan_id: 'yearly',
            product_id: 2,
            name: 'Yearly',
            interval: 'year',
            interval_count: 1,
          },
          subscription_items: [],
          currency: 'USD',
          amount: 7188,
          current_period_start: '2026-11-01T00:00:00.000Z',
          current_period_end: '2027-11-01T00:00:00.000Z',
          cancel_at_period_end: false,
          paused_at: null,
          grace_until: null,
          ended_at: null,
        },
      }),
    ...overrides,
  });
}

const customer = () => testUser({ activated: true });
const NO_SUBSCRIPTION = { subscription: { current: null, lastInvoiceFinalizing: false } };

async function openOrder(path: string, user: AuthUser | null = customer()) {
  const rendered = await renderApp(path, user, undefined, NO_SUBSCRIPTION);
  await expect.element(rendered.screen.getByTestId('order-form')).toBeVisible();
  return rendered;
}

type Screen = Awaited<ReturnType<typeof renderApp>>['screen'];

async function fillCard(screen: Screen, number = '4242424242424242') {
  await screen.getByLabelText('Card number').fill(number);
  await screen.getByLabelText('Expiry (MM/YY)').fill('1240');
  await screen.getByLabelText('CVC').fill('123');
  await screen.getByLabelText('Name on card').fill('Ann Lee');
}

const posted = (seen: Request[], path: string) =>
  seen.filter((request) => new URL(request.url).pathname === path);

afterEach(() => {
  // The query cache lives as long as the page and empties when the signed-in user changes:
  // a sign-in and out between tests keeps one test's catalog from the next (visitors all).
  updateSession({ user: testUser({ id: 999 }) });
  resetSession();
  vi.unstubAllGlobals();
  vi.mocked(goToProvider).mockClear();
  // biome-ignore lint/suspicious/noDocumentCookie: the test sets and clears the promotion cookie
  document.cookie = 'coupon=; max-age=0; path=/';
});

describe('order page', () => {
  it('shows the plans by sort with badges, monthly rates and the billed total', async () => {
    catalog();
    const { screen } = await openOrder('/en/order-v2', null);
    const plans = screen.getByRole('group', { name: 'Plans' }).getByRole('radio');
    expect(plans.all()).toHaveLength(3);
    // §3 sort: Two years (0), Yearly (1), Monthly (3); the addon is no plan card.
    const cards = screen.getByTestId('plans').element().querySelectorAll('label');
    expect([...cards].map((card) => card.dataset.testid)).toEqual(['plan-3', 'plan-2', 'plan-1']);
    const yearly = screen.getByTestId('plan-2');
    await expect.element(yearly).toHaveTextContent('Most popular');
    await expect.element(yearly).toHaveTextContent('Save 50%');
    await expect.element(yearly).toHaveTextContent(`${usd(599)}per month`);
    await expect.element(yearly).toHaveTextContent(`Billed ${usd(7188)} yearly`);
    expect(yearly.element().querySelector('s')?.textContent).toBe(usd(14388));
    const monthly = screen.getByTestId('plan-1');
    await expect.element(monthly).not.toHaveTextContent('Most popular');
    await expect.element(monthly).toHaveTextContent(`Billed ${usd(1199)} monthly`);
    await expect
      .element(screen.getByTestId('plan-3'))
      .toHaveTextContent(`Billed ${usd(10776)} every 2 years`);
    // The most selected plan is chosen first; its addon is offered.
    await expect.element(screen.getByRole('radio', { name: /Yearly/ })).toBeChecked();
    await expect.element(screen.getByRole('checkbox', { name: /Dedicated IP/ })).toBeVisible();
    await expect.element(screen.getByTestId('order-total')).toHaveTextContent(usd(7188));
    await expect.element(screen.getByRole('button', { name: `Pay ${usd(7188)}` })).toBeVisible();
  });

  it('asks for the products of the page currency and service, once per 30 s', async () => {
    const seen = catalog();
    await openOrder('/es/order-v2', null);
    await expect.poll(() => posted(seen, API.products).length).toBeGreaterThan(0);
    const url = new URL(posted(seen, API.products)[0]?.url ?? '');
    expect(url.searchParams.get('currency')).toBe('EUR');
    expect(url.searchParams.get('service_id')).toBe('1');
  });

  it('shows an empty state when nothing is on sale in the currency', async () => {
    catalog({ [API.products]: () => jsonResponse(200, { currency: 'USD', items: [] }) });
    const { screen } = await renderApp('/en/order-v2', null);
    await expect.element(screen.getByText('No plans available')).toBeVisible();
  });

  it('offers to try again when the plans cannot be loaded', async () => {
    let fail = true;
    catalog({
      [API.products]: () =>
        fail
          ? jsonResponse(500, { code: 'internal', errors_validation: {}, errors_info: [] })
          : jsonResponse(200, { currency: 'USD', items: [MONTHLY] }),
    });
    const { screen } = await renderApp('/en/order-v2', null);
    await expect.element(screen.getByText('We could not load the plans')).toBeVisible();
    fail = false;
    await screen.getByRole('button', { name: 'Try again' }).click();
    await expect.element(screen.getByTestId('plan-1')).toBeVisible();
  });

  it('applies a coupon to the total, and shows a refused one under the field', async () => {
    catalog();
    const { screen } = await openOrder('/en/order-v2', null);
    const field = screen.getByLabelText('Coupon code');
    await field.fill('OLD');
    await screen.getByRole('button', { name: 'Apply' }).click();
    await expect.element(field).toHaveAccessibleDescription(t('billing_errors.coupon_expired'));
    await expect.element(field).toHaveAttribute('aria-invalid', 'true');
    await expect.element(screen.getByTestId('order-total')).toHaveTextContent(usd(7188));
    await field.fill('save20');
    await screen.getByRole('button', { name: 'Apply' }).click();
    await expect.element(screen.getByTestId('coupon-applied')).toHaveTextContent('SAVE20');
    await expect.element(screen.getByTestId('order-discount')).toHaveTextContent(usd(1438));
    await expect.element(screen.getByTestId('order-total')).toHaveTextContent(usd(5750));
  });

  it('applies the coupon of a promotion cookie on arrival', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: a promotion link's cookie
    document.cookie = 'coupon=SAVE20; path=/';
    catalog();
    const { screen } = await openOrder('/en/order-v2', null);
    await expect.element(screen.getByTestId('coupon-applied')).toHaveTextContent('SAVE20');
    await expect.element(screen.getByTestId('order-total')).toHaveTextContent(usd(5750));
  });

  it('sends a visitor to sign up at Pay, the choice kept in the URL', async () => {
    catalog();
    const { screen, router } = await openOrder('/en/order-v2', null);
    await screen.getByRole('radio', { name: /Yearly/ }).click();
    await screen.getByRole('checkbox', { name: /Dedicated IP/ }).click();
    await screen.getByLabelText('Coupon code').fill('SAVE20');
    await screen.getByRole('button', { name: 'Apply' }).click();
    await expect.element(screen.getByTestId('coupon-applied')).toBeVisible();
    await screen.getByTestId('pay').click();
    await expect.poll(() => router.state.location.pathname).toBe('/en/signup');
    const query = new URLSearchParams(router.state.location.search);
    expect(query.get('continue')).toBe('order2');
    expect(query.get('path')).toBe('/en/order-v2');
    expect(query.get('plan')).toBe('2');
    expect(query.get('addon')).toBe('1');
    expect(query.get('coupon')).toBe('SAVE20');
  });

  it('opens with the choice of the URL when the visitor comes back', async () => {
    catalog();
    const { screen } = await openOrder('/en/order-v2?plan=1&coupon=SAVE20', null);
    await expect.element(screen.getByRole('radio', { name: /Monthly/ })).toBeChecked();
    await expect.element(screen.getByTestId('coupon-applied')).toBeVisible();
    await expect.element(screen.getByTestId('order-total')).toHaveTextContent(usd(959));
  });

  it('keeps the payment service in the URL, since a plan belongs to one', async () => {
    catalog();
    const { screen, router } = await openOrder('/en/order-v2', null);
    await screen.getByRole('radio', { name: 'PayPal' }).click();
    await expect.element(screen.getByRole('radio', { name: /Yearly/ })).toBeChecked();
    await expect.poll(() => router.state.location.search).toBe('?plan=12&service=2');
    await expect.element(screen.getByLabelText('Card number')).not.toBeInTheDocument();
  });

  it('opens on the payment service the URL names', async () => {
    catalog();
    const { screen } = await openOrder('/en/order-v2?plan=12&service=2', null);
    await expect.element(screen.getByRole('radio', { name: 'PayPal' })).toBeChecked();
    await expect.element(screen.getByRole('radio', { name: /Yearly/ })).toBeChecked();
  });

  it('pays: tokenize, then checkout with the token, then the thanks page', async () => {
    const seen = catalog();
    const { screen, router } = await openOrder('/en/billing/order-v2');
    await screen.getByRole('checkbox', { name: /Dedicated IP/ }).click();
    await fillCard(screen);
    await screen.getByTestId('pay').click();
    await expect.poll(() => router.state.location.pathname).toBe('/en/order-received/thanks');
    expect(router.state.location.search).toBe('?invoice=77');
    const [token] = posted(seen, TOKENIZE);
    expect(await token?.json()).toEqual({
      number: '4242424242424242',
      exp_month: 12,
      exp_year: 2040,
      cvc: '123',
      name: 'Ann Lee',
    });
    const [checkout] = posted(seen, API.checkout);
    const body = await checkout?.json();
    expect(body).toMatchObject({
      payment: { service_id: 1, token: 'tok_visa' },
      product_id: 2,
      addon_ids: [9],
      lang: 'en',
      billing_address: { name: 'Ann Lee', city: 'Springfield', country: 'US' },
    });
    expect(body.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    await expect
      .element(screen.getByRole('heading', { name: 'Thank you for your order' }))
      .toBeVisible();
    await expect.element(screen.getByTestId('thanks-plan')).toHaveTextContent('Yearly');
  });

  it('shows a declined card under the card number, keeping what was typed', async () => {
    catalog({ [API.checkout]: () => jsonResponse(422, DECLINED) });
    const { screen } = await openOrder('/en/billing/order-v2');
    await fillCard(screen, '4000000000000002');
    await screen.getByTestId('pay').click();
    const number = screen.getByLabelText('Card number');
    await expect.element(number).toHaveAccessibleDescription(t('billing_errors.card_declined'));
    await expect.element(number).toHaveFocus();
    await expect.element(number).toHaveValue('4000 0000 0000 0002');
    await expect.element(screen.getByLabelText('Expiry (MM/YY)')).toHaveValue('12/40');
    await expect.element(screen.getByLabelText('Name on card')).toHaveValue('Ann Lee');
    await expect.element(screen.getByRole('radio', { name: /Yearly/ })).toBeChecked();
  });

  it('sends one checkout with one idempotency key however often Pay is clicked', async () => {
    let answer: (response: Response) => void = () => {};
    const seen = catalog({
      [API.checkout]: () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    const { screen, router } = await openOrder('/en/billing/order-v2');
    await fillCard(screen);
    const pay = screen.getByTestId('pay');
    const button = pay.element() as HTMLButtonElement;
    // A double click: both land before the page has re-rendered.
    button.click();
    button.click();
    await expect.poll(() => posted(seen, API.checkout).length).toBe(1);
    await expect.element(pay).toHaveAttribute('aria-busy', 'true');
    button.click();
    screen
      .getByTestId('order-form')
      .element()
      .dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    answer(
      jsonResponse(200, {
        status: 'completed',
        subscription_id: 5,
        invoice_id: 77,
        redirect_url: null,
      }),
    );
    await expect.poll(() => router.state.location.pathname).toBe('/en/order-received/thanks');
    expect(posted(seen, API.checkout)).toHaveLength(1);
    expect(posted(seen, TOKENIZE)).toHaveLength(1);
  });

  it('retries after no answer with the same idempotency key', async () => {
    let calls = 0;
    const seen = catalog({
      [API.checkout]: () => {
        calls += 1;
        if (calls === 1) throw new TypeError('Failed to fetch');
        return jsonResponse(200, {
          status: 'completed',
          subscription_id: 5,
          invoice_id: 77,
          redirect_url: null,
        });
      },
    });
    const { screen, router } = await openOrder('/en/billing/order-v2');
    await fillCard(screen);
    await screen.getByTestId('pay').click();
    await expect.element(screen.getByTestId('order-error')).toBeVisible();
    await screen.getByTestId('pay').click();
    await expect.poll(() => router.state.location.pathname).toBe('/en/order-received/thanks');
    const keys = await Promise.all(
      posted(seen, API.checkout).map(async (request) => (await request.json()).idempotency_key),
    );
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    // The card was tokenized once: the retry sends the same order.
    expect(posted(seen, TOKENIZE)).toHaveLength(1);
  });

  it('goes to the bank page when the payment needs confirming', async () => {
    catalog({
      [API.checkout]: () =>
        jsonResponse(200, {
          status: 'requires_action',
          subscription_id: null,
          invoice_id: null,
          redirect_url: '/sandbox/v1/authenticate/pay_1',
        }),
    });
    const { screen } = await openOrder('/en/billing/order-v2');
    await fillCard(screen, '4000002760003184');
    await screen.getByTestId('pay').click();
    await expect
      .poll(() => vi.mocked(goToProvider).mock.calls)
      .toEqual([['/sandbox/v1/authenticate/pay_1']]);
  });

  it('says the bank did not confirm when the customer comes back from a failed check', async () => {
    catalog();
    sessionStorage.setItem('order-choice', JSON.stringify({ plan: 1 }));
    const { screen } = await openOrder('/en/billing/order-v2?sandbox_payment=pay_1&outcome=failed');
    await expect
      .element(screen.getByTestId('payment-not-confirmed'))
      .toHaveTextContent('Your bank did not confirm the payment');
    await expect.element(screen.getByRole('radio', { name: /Monthly/ })).toBeChecked();
    await expect.element(screen.getByTestId('pay')).toBeEnabled();
  });

  it('goes on to the thanks page when the customer comes back with the payment confirmed', async () => {
    catalog();
    const { router } = await renderApp(
      '/en/billing/order-v2?sandbox_payment=pay_1&outcome=succeeded',
      customer(),
      undefined,
      NO_SUBSCRIPTION,
    );
    await expect.poll(() => router.state.location.pathname).toBe('/en/order-received/thanks');
  });

  it('offers PayPal as a hop to the provider', async () => {
    const seen = catalog({
      [API.checkout]: () =>
        jsonResponse(200, {
          status: 'requires_action',
          subscription_id: null,
          invoice_id: null,
          redirect_url: 'https://paypal.example/approve',
        }),
    });
    const { screen } = await openOrder('/en/billing/order-v2');
    await screen.getByRole('radio', { name: 'PayPal' }).click();
    await expect.element(screen.getByLabelText('Card number')).not.toBeInTheDocument();
    await screen.getByRole('button', { name: 'Continue to PayPal' }).click();
    await expect.poll(() => vi.mocked(goToProvider).mock.calls.length).toBe(1);
    const body = await posted(seen, API.checkout)[0]?.json();
    expect(body).toMatchObject({ payment: { service_id: 2 }, product_id: 12 });
    expect(body.payment.token).toBeUndefined();
    expect(posted(seen, TOKENIZE)).toHaveLength(0);
  });

  it('says so when the plan is no longer on sale', async () => {
    catalog({
      [API.checkout]: () =>
        jsonResponse(422, {
          code: 'validation_failed',
          errors_validation: { product_id: ['billing_errors.product_unavailable'] },
          errors_info: [],
        }),
    });
    const { screen } = await openOrder('/en/billing/order-v2');
    await fillCard(screen);
    await screen.getByTestId('pay').click();
    await expect
      .element(screen.getByTestId('order-error'))
      .toHaveTextContent(t('billing_errors.product_unavailable'));
  });

  it('reactivates through its own endpoint and title', async () => {
    const seen = catalog({
      [API.reactivate]: () =>
        jsonResponse(200, {
          status: 'completed',
          subscription_id: 6,
          invoice_id: 78,
          redirect_url: null,
        }),
    });
    const { screen, router } = await renderApp('/en/billing/reactivate-v2', customer(), undefined, {
      subscription: {
        current: { status: 'expired', service_id: 1, onetime: false },
        lastInvoiceFinalizing: false,
      },
    });
    await expect
      .element(screen.getByRole('heading', { level: 1 }))
      .toHaveTextContent('Welcome back: choose a plan to reactivate your VPN');
    await fillCard(screen);
    await screen.getByTestId('pay').click();
    await expect.poll(() => router.state.location.pathname).toBe('/en/order-received/thanks');
    expect(posted(seen, API.reactivate)).toHaveLength(1);
    expect(posted(seen, API.checkout)).toHaveLength(0);
  });

  it('fits a 390 px phone without sideways scrolling, the address open', async () => {
    await page.viewport(390, 844);
    try {
      catalog({
        [API.products]: () =>
          jsonResponse(200, {
            currency: 'USD',
            items: [
              {
                ...YEARLY,
                name: 'VPN Premium with Dedicated IP and Family Sharing for six devices',
              },
              MONTHLY,
              ADDON,
            ],
          }),
      });
      const { screen } = await openOrder('/en/billing/order-v2');
      await screen.getByRole('button', { name: /Billing address/ }).click();
      await expect.element(screen.getByLabelText('Postal code')).toHaveValue('12345');
      await fillCard(screen, '378282246310005');
      expect(document.documentElement.scrollWidth - window.innerWidth).toBeLessThanOrEqual(0);
    } finally {
      await page.viewport(1280, 800);
    }
  });
});
