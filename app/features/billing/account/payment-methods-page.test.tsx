import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BILLING_MESSAGES,
  type BillingAddress,
  billingEndpoints,
  type CardView,
} from '#shared/contracts/billing.ts';
import { getSession } from '../../../session/session-store.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { type FetchHandler, jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { card } from './billing-test-data.ts';

afterEach(() => vi.unstubAllGlobals());

const TOKENIZE = '/sandbox/tokenize';
const now = new Date();
// Next month: not yet expired by §5, but within two months of it.
const soon = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));

const VISA = card();
const EXPIRED = card({
  card_id: 'card_old',
  brand: 'mastercard',
  last4: '4444',
  exp_month: 1,
  exp_year: 2020,
  default: false,
});
const SOON = card({
  card_id: 'card_soon',
  brand: 'amex',
  last4: '0005',
  exp_month: soon.getUTCMonth() + 1,
  exp_year: soon.getUTCFullYear(),
  default: false,
});

const ADDRESS: BillingAddress = {
  name: 'Ann Lee',
  company: '',
  line1: '1 Main St',
  line2: '',
  city: 'Springfield',
  postal_code: '12345',
  region: '',
  country: 'US',
  vat_id: '',
};

function cardsServer(items: CardView[], routes: Record<string, FetchHandler> = {}) {
  return stubFetch({
    [billingEndpoints.cards.url]: () => jsonResponse(200, { items }),
    [billingEndpoints.billingAddress.url]: () => jsonResponse(200, { billing_address: ADDRESS }),
    [billingEndpoints.subscription.url]: () => jsonResponse(404, { code: 'not_found' }),
    [billingEndpoints.services.url]: () =>
      jsonResponse(200, {
        items: [
          {
            service_id: 1,
            payment_method_type: 'card',
            checkout: 'card_form',
            tokenize_url: TOKENIZE,
            google_pay: false,
            apple_pay: false,
            crypto_processing: false,
          },
        ],
      }),
    ...routes,
  });
}

const bodiesOf = async (requests: Request[], url: string) =>
  Promise.all(
    requests.filter((request) => request.url.endsWith(url)).map((request) => request.json()),
  );

describe('payment methods', () => {
  it('lists the default card first, with expired and expiring cards marked (§5)', async () => {
    cardsServer([VISA, EXPIRED, SOON]);
    const { screen } = await renderApp('/en/billing/payment-methods', testUser());
    const rows = screen.getByTestId('card');
    await expect.element(rows.first()).toHaveTextContent('Visa •••• 4242');
    await expect.element(rows.first()).toHaveTextContent('Default');
    await expect.element(rows.first()).toHaveTextContent('Expires 04/2031');
    await expect.element(rows.nth(1).getByTestId('card-expired')).toHaveTextContent('Expired');
    await expect.element(rows.nth(1)).toHaveTextContent('Expires 01/2020');
    await expect
      .element(rows.nth(2).getByTestId('card-expires-soon'))
      .toHaveTextContent('Expires soon');
    // An expired card cannot become the default; the default card needs no button.
    await expect
      .element(rows.nth(1).getByRole('button', { name: /Make default/ }))
      .not.toBeInTheDocument();
    await expect
      .element(rows.first().getByRole('button', { name: /Make default/ }))
      .not.toBeInTheDocument();
  });

  it('makes a card the default and stores the new default source', async () => {
    const seen = cardsServer([VISA, SOON], {
      [billingEndpoints.setDefaultSource.url]: () =>
        jsonResponse(200, {
          user: testUser({ default_source: SOON.card_id }),
          items: [
            { ...SOON, default: true },
            { ...VISA, default: false },
          ],
        }),
    });
    const { screen } = await renderApp(
      '/en/billing/payment-methods',
      testUser({ default_source: VISA.card_id }),
    );
    await screen.getByRole('button', { name: 'Make default American Express •••• 0005' }).click();
    await expect
      .element(screen.getByText('American Express •••• 0005 is now your default card.'))
      .toBeVisible();
    const rows = screen.getByTestId('card');
    await expect.element(rows.first()).toHaveTextContent('American Express •••• 0005');
    await expect.element(rows.first()).toHaveAttribute('data-default', 'true');
    expect(await bodiesOf(seen, billingEndpoints.setDefaultSource.url)).toEqual([
      { card_id: SOON.card_id },
    ]);
    expect(getSession().user?.default_source).toBe(SOON.card_id);
  });

  it('removes a card after confirming, and shows why the server refuses one', async () => {
    const seen = cardsServer([VISA, EXPIRED], {
      [billingEndpoints.cardDelete.url]: async (request) => {
        const { card_id } = (await request.clone().json()) as { card_id: string };
        return card_id === VISA.card_id
          ? jsonResponse(422, {
              code: 'validation_failed',
              errors_validation: { card_id: [BILLING_MESSAGES.cardInUse] },
              errors_info: [],
            })
          : jsonResponse(200, { items: [VISA] });
      },
    });
    const { screen } = await renderApp('/en/billing/payment-methods', testUser());
    await screen.getByRole('button', { name: 'Remove Mastercard •••• 4444' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Remove this card?' });
    await expect.element(dialog).toHaveTextContent('Mastercard •••• 4444');
    expect(await bodiesOf(seen, billingEndpoints.cardDelete.url)).toEqual([]);
    await dialog.getByRole('button', { name: 'Remove card' }).click();
    await expect.element(dialog).not.toBeInTheDocument();
    await expect.element(screen.getByTestId('card')).toHaveTextContent('Visa •••• 4242');
    expect(screen.getByTestId('card').elements()).toHaveLength(1);

    await screen.getByRole('button', { name: 'Remove Visa •••• 4242' }).click();
    const refused = screen.getByRole('dialog', { name: 'Remove this card?' });
    await refused.getByRole('button', { name: 'Remove card' }).click();
    await expect
      .element(refused.getByRole('alert'))
      .toHaveTextContent('This card pays for your subscription, so it cannot be removed.');
  });

  it('changes a card expiry with month and year', async () => {
    const seen = cardsServer([VISA], {
      [billingEndpoints.cardUpdate.url]: () =>
        jsonResponse(200, { items: [{ ...VISA, exp_month: 9, exp_year: 2033 }] }),
    });
    const { screen } = await renderApp('/en/billing/payment-methods', testUser());
    await screen.getByRole('button', { name: 'Edit expiry Visa •••• 4242' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Edit expiry date' });
    await dialog.getByRole('combobox', { name: 'Month' }).click();
    await dialog.getByRole('option', { name: /^09/ }).click();
    await dialog.getByRole('combobox', { name: 'Year' }).click();
    await dialog.getByRole('option', { name: '2033' }).click();
    await dialog.getByRole('button', { name: 'Save expiry date' }).click();
    await expect.element(dialog).not.toBeInTheDocument();
    await expect.element(screen.getByTestId('card')).toHaveTextContent('Expires 09/2033');
    expect(await bodiesOf(seen, billingEndpoints.cardUpdate.url)).toEqual([
      { card_id: VISA.card_id, exp_month: 9, exp_year: 2033 },
    ]);
  });

  it('adds a card through the card form: only the token reaches the API', async () => {
    const added = card({ card_id: 'card_new', last4: '1881', default: false });
    const seen = cardsServer([VISA], {
      [TOKENIZE]: () => jsonResponse(200, { id: 'tok_123' }),
      [billingEndpoints.cardCreate.url]: () => jsonResponse(200, { items: [VISA, added] }),
    });
    const { screen } = await renderApp('/en/billing/payment-methods', testUser());
    await screen.getByRole('button', { name: 'Add a card' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Add a card' });
    await dialog.getByLabelText('Card number').fill('4012888888881881');
    await dialog.getByLabelText('Expiry (MM/YY)').fill('12/34');
    await dialog.getByLabelText('CVC').fill('123');
    await dialog.getByRole('button', { name: 'Save card' }).click();
    await expect.element(dialog).not.toBeInTheDocument();
    await expect.element(screen.getByTestId('card').nth(1)).toHaveTextContent('Visa •••• 1881');
    expect(await bodiesOf(seen, billingEndpoints.cardCreate.url)).toEqual([{ token: 'tok_123' }]);
  });

  it('saves the billing address, with server messages under the fields', async () => {
    let attempt = 0;
    const seen = cardsServer([VISA], {
      [billingEndpoints.billingAddressUpdate.url]: async (request) => {
        attempt += 1;
        if (attempt === 1) {
          return jsonResponse(422, {
            code: 'validation_failed',
            errors_validation: { postal_code: ['input_errors.field_is_invalid'] },
            errors_info: [],
          });
        }
        return jsonResponse(200, { billing_address: await request.clone().json() });
      },
    });
    const { screen } = await renderApp('/en/billing/payment-methods', testUser());
    const city = screen.getByLabelText('City');
    await expect.element(city).toHaveValue('Springfield');
    await city.fill('Shelbyville');
    await screen.getByRole('combobox', { name: 'Country' }).click();
    await screen.getByRole('option', { name: 'Canada' }).click();
    await screen.getByRole('button', { name: 'Save billing address' }).click();
    await expect
      .element(screen.getByLabelText('Postal code'))
      .toHaveAccessibleDescription('This value is not valid.');
    await screen.getByLabelText('Postal code').fill('K1A 0B1');
    await screen.getByRole('button', { name: 'Save billing address' }).click();
    await expect.element(screen.getByText('Your billing address was saved.')).toBeVisible();
    const bodies = await bodiesOf(seen, billingEndpoints.billingAddressUpdate.url);
    expect(bodies.at(-1)).toEqual({
      ...ADDRESS,
      city: 'Shelbyville',
      country: 'CA',
      postal_code: 'K1A 0B1',
    });
  });
});
