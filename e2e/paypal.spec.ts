import { expect, test } from '@playwright/test';
import { newCustomerOnOrderPage } from './support/billing.ts';

// §2 order with PayPal (service 2) through PayPal's approval page, played by the stand-in
// (e2e/support/paypal-standin.ts): the buyer approves, PayPal takes the first payment and
// tells the app by signed webhooks, and the plan is the customer's, paid by PayPal.

const standInUrl = `http://127.0.0.1:${process.env.E2E_PAYPAL_PORT ?? 5411}`;

test('a new customer subscribes with PayPal, approving on PayPal’s page', async ({
  page,
  request,
}) => {
  await newCustomerOnOrderPage(page, request, 'paypal');
  await page.getByRole('radio', { name: 'PayPal' }).check();
  await page.getByRole('radio', { name: /^1 month/ }).check();
  await page.getByRole('button', { name: 'Continue to PayPal' }).click();

  await expect(page).toHaveURL(new RegExp(`^${standInUrl}/webapps/billing/subscriptions`));
  await expect(page.getByText(/12\.99 USD/)).toBeVisible();
  await page.getByRole('button', { name: 'Approve' }).click();

  await expect(page).toHaveURL(/\/en\/order-received\/thanks\?subscription_id=I-/);
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();
  await expect(page.getByTestId('thanks-plan')).toContainText('1 month');

  await page.getByRole('link', { name: 'Go to membership' }).click();
  await expect(page).toHaveURL(/\/billing\/membership-v2/);
  await expect(page.getByText('1 month').first()).toBeVisible();
  await expect(page.getByText('PayPal').first()).toBeVisible();
});

test('a customer who cancels on PayPal’s page is back on the order page with nothing bought', async ({
  page,
  request,
}) => {
  await newCustomerOnOrderPage(page, request, 'paypal-cancel');
  await page.getByRole('radio', { name: 'PayPal' }).check();
  await page.getByRole('radio', { name: /^1 month/ }).check();
  await page.getByRole('button', { name: 'Continue to PayPal' }).click();
  await expect(page).toHaveURL(new RegExp(`^${standInUrl}/webapps/billing/subscriptions`));
  await page.getByRole('button', { name: 'Cancel' }).click();

  await expect(page).toHaveURL(/\/en\/order-v2\?plan=/);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose your plan' })).toBeVisible();
});
