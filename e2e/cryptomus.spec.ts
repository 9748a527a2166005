import { expect, type Page, test } from '@playwright/test';
import { newCustomerOnOrderPage } from './support/billing.ts';

// §2 order with crypto (service 6) through Cryptomus's hosted page, played by the stand-in
// (e2e/support/cryptomus-standin.ts): a one-time purchase of one period, granted only once
// Cryptomus's status call says the payment is final.

const standInUrl = `http://127.0.0.1:${process.env.E2E_CRYPTOMUS_PORT ?? 5431}`;

/** From the order page to Cryptomus's page for the 1 month plan, paid in crypto. */
async function continueToCryptomus(page: Page) {
  await page.getByRole('radio', { name: 'Cryptocurrency' }).check();
  await page.getByRole('radio', { name: /^1 month/ }).check();
  await page.getByRole('button', { name: 'Continue to Cryptomus' }).click();
  await expect(page).toHaveURL(new RegExp(`^${standInUrl}/pay/`));
  await expect(page.getByRole('heading', { name: /^Pay 12\.99 USD$/ })).toBeVisible();
}

test('a new customer pays in crypto on Cryptomus and gets the plan, paid once', async ({
  page,
  request,
}) => {
  await newCustomerOnOrderPage(page, request, 'crypto');
  await continueToCryptomus(page);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();

  await expect(page).toHaveURL(/\/en\/order-received\/thanks/);
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();
  await expect(page.getByTestId('thanks-plan')).toContainText('1 month');

  await page.getByRole('link', { name: 'Go to membership' }).click();
  await expect(page).toHaveURL(/\/billing\/membership-v2/);
  await expect(page.getByText('1 month').first()).toBeVisible();
  await expect(page.getByText('Cryptocurrency').first()).toBeVisible();
});

test('a crypto payment seen but not confirmed waits as "approval pending", then starts the plan', async ({
  page,
  request,
}) => {
  // The thanks page asks again every few seconds while the network confirms.
  test.setTimeout(60_000);
  await newCustomerOnOrderPage(page, request, 'crypto-wait');
  await continueToCryptomus(page);
  const invoiceUrl = page.url();
  await page.getByRole('button', { name: 'Pay (unconfirmed)' }).click();
  await expect(page.getByRole('status')).toContainText('waiting for network confirmations');
  await page.getByRole('link', { name: 'Back to the shop' }).click();

  await expect(page).toHaveURL(/\/en\/order-received\/thanks/);
  await expect(page.getByTestId('crypto-pending')).toContainText('waiting for the network');

  // The chain confirms: Cryptomus marks the invoice paid and tells the app.
  const uuid = invoiceUrl.split('/').pop();
  const confirmed = await request.post(`${standInUrl}/test/invoices/${uuid}/status`, {
    data: { status: 'paid' },
  });
  expect(confirmed.status()).toBe(200);
  await expect(page.getByTestId('thanks-plan')).toContainText('1 month', { timeout: 15_000 });
});
