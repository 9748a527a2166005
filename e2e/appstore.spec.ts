import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { newCustomerOnOrderPage } from './support/billing.ts';

// §9 service 4: a subscription bought in the mobile app through the App Store. The stand-in
// plays the customer's iPhone (StoreKit buys with the account token our API gave the app) and
// Apple (a signed notification to our webhook); the customer then sees the plan, paid in-app,
// on their membership page. "Restore purchases" recovers one whose notification never came.

const standinUrl = `http://127.0.0.1:${process.env.E2E_APPSTORE_PORT ?? 5421}`;
const APP_STORE_API = '/api/account/v1/billing/app-store';
/** The account API takes writes only from our own pages' fetch (CSRF). */
const FROM_PAGE = { 'x-requested-with': 'fetch' };

/** The token the app asks our API for before it buys, with the customer's own session. */
async function accountToken(page: Page): Promise<string> {
  const answer = await page.request.get(`${APP_STORE_API}/account-token`);
  expect(answer.status()).toBe(200);
  const { app_account_token: token } = (await answer.json()) as { app_account_token: string };
  expect(token).toMatch(/^[0-9a-f-]{36}$/);
  return token;
}

/** A StoreKit purchase on the customer's iPhone. */
async function buyInApp(
  request: APIRequestContext,
  appAccountToken: string,
  options: { notify?: boolean } = {},
) {
  const answer = await request.post(`${standinUrl}/standin/purchase`, {
    data: { appAccountToken, productId: 'com.shieldline.vpn.monthly', ...options },
  });
  expect(answer.status()).toBe(200);
  return (await answer.json()) as {
    signedTransaction: string;
    originalTransactionId: string;
    notification: { status: number | null };
  };
}

async function expectInAppPlan(page: Page) {
  await page.goto('/en/billing/membership-v2');
  await expect(page).toHaveURL(/\/billing\/membership-v2/);
  await expect(page.getByTestId('plan-name')).toHaveText('1 month');
  await expect(page.getByTestId('payment-method')).toHaveText('In-app purchase (App Store)');
  await expect(page.getByTestId('period-line')).toContainText(/^Renews on /);
}

test('a subscription bought in the app shows on membership as an App Store purchase', async ({
  page,
  request,
}) => {
  await newCustomerOnOrderPage(page, request, 'appstore');
  const token = await accountToken(page);
  // The same token every time the app asks: it is the customer's at the App Store.
  expect(await accountToken(page)).toBe(token);

  const bought = await buyInApp(request, token);
  expect(bought.notification.status).toBe(200);
  await expectInAppPlan(page);
});

test('restore purchases brings back an App Store subscription whose notification never came', async ({
  page,
  request,
}) => {
  await newCustomerOnOrderPage(page, request, 'restore');
  const token = await accountToken(page);
  const bought = await buyInApp(request, token, { notify: false });
  expect(bought.notification.status).toBeNull();
  await page.goto('/en/billing/membership-v2');
  await expect(page).toHaveURL(/order-v2/);

  const restored = await page.request.post(`${APP_STORE_API}/restore`, {
    headers: FROM_PAGE,
    data: { signed_transactions: [bought.signedTransaction] },
  });
  expect(restored.status()).toBe(200);
  expect(await restored.json()).toEqual({
    restored: [{ original_transaction_id: bought.originalTransactionId, status: 'active' }],
    refused: [],
  });
  await expectInAppPlan(page);
});

test('restore purchases refuses a transaction bought with another customer’s token', async ({
  page,
  request,
}) => {
  await newCustomerOnOrderPage(page, request, 'restore-other');
  await accountToken(page);
  const someoneElse = await buyInApp(request, crypto.randomUUID(), { notify: false });
  const restored = await page.request.post(`${APP_STORE_API}/restore`, {
    headers: FROM_PAGE,
    data: { signed_transactions: [someoneElse.signedTransaction] },
  });
  expect(restored.status()).toBe(200);
  expect(await restored.json()).toEqual({
    restored: [],
    refused: [
      { original_transaction_id: someoneElse.originalTransactionId, reason: 'other_account' },
    ],
  });
  await page.goto('/en/billing/membership-v2');
  await expect(page).toHaveURL(/order-v2/);
});
