import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type GatewaySettingsView,
  gatewaySettingsEndpoints,
} from '#shared/contracts/admin/payment-gateways.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { type FetchHandler, jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';

// The keys of one gateway as staff see and set them, over the real route table and guards,
// with the server stood in for at fetch.
const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });
const APP = 'https://vpn.example.com';

afterEach(() => vi.unstubAllGlobals());

function view(overrides: Partial<GatewaySettingsView> & Pick<GatewaySettingsView, 'gateway'>) {
  return {
    service_id: 1,
    enabled: false,
    source: 'none',
    values: {},
    secrets: {},
    webhook_url: `${APP}/api/public/v1/webhooks/${overrides.gateway}`,
    ...overrides,
  } as GatewaySettingsView;
}

const STRIPE = view({
  gateway: 'stripe',
  enabled: true,
  source: 'admin',
  values: { apiUrl: 'http://127.0.0.1:12111', googlePay: true, applePay: false },
  secrets: { secretKey: true, webhookSecret: true },
});
const PAYPAL = view({
  gateway: 'paypal',
  service_id: 2,
  enabled: true,
  source: 'admin',
  values: { clientId: 'client-1', webhookId: 'WH-1', environment: 'sandbox' },
  secrets: { clientSecret: true },
});
const APPSTORE = view({
  gateway: 'appstore',
  service_id: 4,
  source: 'environment',
  enabled: true,
  values: { bundleId: 'com.example.vpn', environment: 'Sandbox', issuerId: 'iss', keyId: 'K1' },
  secrets: { privateKey: true },
});
const CRYPTOMUS = view({ gateway: 'cryptomus', service_id: 6, secrets: { paymentKey: false } });
const ITEMS = [STRIPE, PAYPAL, APPSTORE, CRYPTOMUS];

function server(routes: Record<string, FetchHandler> = {}) {
  return stubFetch({
    [gatewaySettingsEndpoints.list.url]: () => jsonResponse(200, { items: ITEMS }),
    ...routes,
  });
}

const updates = (requests: Request[]) =>
  Promise.all(
    requests
      .filter((request) => request.url.endsWith(gatewaySettingsEndpoints.update.url))
      .map((request) => request.clone().json()),
  );

const open = (key: string) => renderApp(`/en/admin/payment-gateways/${key}/settings`, admin);

describe('payment gateway settings', () => {
  it('shows the gateway’s state, its webhook address and a control for each of its fields', async () => {
    server();
    const { screen } = await open('stripe');
    await expect
      .element(screen.getByRole('heading', { level: 1, name: 'Stripe settings' }))
      .toBeVisible();
    await expect.element(screen.getByTestId('gateway-status')).toHaveTextContent('Selling');
    await expect.element(screen.getByTestId('gateway-source')).toHaveTextContent('Saved here');
    await expect
      .element(screen.getByLabelText('Webhook URL', { exact: true }))
      .toHaveValue(`${APP}/api/public/v1/webhooks/stripe`);
    await expect.element(screen.getByRole('button', { name: 'Copy webhook URL' })).toBeVisible();
    await expect.element(screen.getByRole('checkbox', { name: 'Enabled' })).toBeChecked();
    await expect.element(screen.getByLabelText('Secret key')).toHaveAttribute('type', 'password');
    await expect.element(screen.getByLabelText('Webhook signing secret')).toHaveValue('');
    await expect
      .element(screen.getByLabelText('API URL (tests only)'))
      .toHaveValue('http://127.0.0.1:12111');
    await expect
      .element(screen.getByRole('checkbox', { name: 'Offer Google Pay at checkout' }))
      .toBeChecked();
    await expect
      .element(screen.getByRole('checkbox', { name: 'Offer Apple Pay at checkout' }))
      .not.toBeChecked();
    expect(screen.getByTestId('gateway-environment-note').elements()).toHaveLength(0);
  });

  it('says a stored secret is set without showing it', async () => {
    server();
    const { screen } = await open('paypal');
    const secret = screen.getByLabelText('Client secret');
    await expect.element(secret).toHaveValue('');
    await expect.element(secret).toHaveAttribute('type', 'password');
    await expect.element(secret).toHaveAccessibleDescription('Set — leave empty to keep');
    await expect.element(screen.getByLabelText('Client ID')).toHaveValue('client-1');
    await expect.element(screen.getByLabelText('Environment')).toHaveValue('sandbox');
  });

  it('says a secret never given is not set, on a gateway not set up', async () => {
    server();
    const { screen } = await open('cryptomus');
    await expect
      .element(screen.getByLabelText('Payment API key'))
      .toHaveAccessibleDescription('Not set');
    await expect.element(screen.getByTestId('gateway-status')).toHaveTextContent('Off');
    await expect.element(screen.getByTestId('gateway-source')).toHaveTextContent('Not set up');
  });

  it('sends every plain field but only the secrets typed anew, then says it is saved', async () => {
    const saved = { ...PAYPAL, values: { ...PAYPAL.values, clientId: 'client-2' } };
    const seen = server({
      [gatewaySettingsEndpoints.update.url]: () => jsonResponse(200, { item: saved }),
    });
    const { screen } = await open('paypal');
    await screen.getByLabelText('Client ID').fill('client-2');
    await screen.getByRole('button', { name: 'Save' }).click();
    await expect.element(screen.getByText('Gateway settings saved')).toBeVisible();
    await expect.poll(() => updates(seen)).toHaveLength(1);
    expect((await updates(seen))[0]).toEqual({
      gateway: 'paypal',
      enabled: true,
      values: { clientId: 'client-2', webhookId: 'WH-1', environment: 'sandbox', apiUrl: '' },
    });

    await screen.getByLabelText('Client secret').fill('new-secret');
    await screen.getByLabelText('Environment').selectOptions('Live');
    await screen.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => updates(seen)).toHaveLength(2);
    expect((await updates(seen))[1]).toMatchObject({
      values: { clientSecret: 'new-secret', environment: 'live' },
    });
    // What was typed into a secret is gone once saved.
    await expect.element(screen.getByLabelText('Client secret')).toHaveValue('');
  });

  it('shows the server’s field error under its field and keeps the rest of the form', async () => {
    server({
      [gatewaySettingsEndpoints.update.url]: () =>
        jsonResponse(422, {
          code: 'validation_failed',
          errors_validation: { 'values.paymentKey': ['input_errors.field_is_required'] },
        }),
    });
    const { screen } = await open('cryptomus');
    await expect.element(screen.getByRole('checkbox', { name: 'Enabled' })).toBeChecked();
    await screen.getByLabelText('Merchant ID').fill('merchant-1');
    await screen.getByRole('button', { name: 'Save' }).click();
    const key = screen.getByLabelText('Payment API key');
    await expect.element(key).toHaveAccessibleDescription(/This field is required\./);
    await expect.element(key).toHaveAttribute('aria-invalid', 'true');
    await expect.element(key).toHaveFocus();
    await expect.element(screen.getByLabelText('Merchant ID')).toHaveValue('merchant-1');
  });

  it('says keys from the environment are overridden by saving, with PEM fields as text areas', async () => {
    server();
    const { screen } = await open('iap');
    await expect
      .element(screen.getByRole('heading', { level: 1, name: 'App Store settings' }))
      .toBeVisible();
    await expect
      .element(screen.getByTestId('gateway-source'))
      .toHaveTextContent('Environment variables');
    await expect.element(screen.getByTestId('gateway-environment-note')).toBeVisible();
    const key = screen.getByLabelText('Private key (.p8)');
    await expect.element(key).toHaveProperty('tagName', 'TEXTAREA');
    await expect.element(key).toHaveValue('');
    await expect
      .element(key)
      .toHaveAccessibleDescription(/Set in the environment — enter it again/);
    await expect
      .element(screen.getByLabelText('Apple root certificates (PEM)'))
      .toHaveProperty('tagName', 'TEXTAREA');
    await expect.element(screen.getByLabelText('Environment')).toHaveValue('Sandbox');
    await expect.element(screen.getByLabelText('Bundle ID')).toHaveValue('com.example.vpn');
  });

  it('offers to try again when the settings cannot be loaded', async () => {
    stubFetch({});
    const { screen } = await open('stripe');
    await expect.element(screen.getByText('This could not be loaded')).toBeVisible();
    await expect.element(screen.getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});
