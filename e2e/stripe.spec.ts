import { expect, test } from '@playwright/test';
import { newCustomerOnOrderPage } from './support/billing.ts';

// §2 order with a card on Stripe (service 1 when Stripe is configured) through Stripe's
// hosted Checkout, played by the stand-in (e2e/support/stripe-standin.ts): the customer pays
// there, Stripe tells the app by signed webhooks, and the plan is theirs, paid by card.

const standInUrl = `http://127.0.0.1:${process.env.E2E_STRIPE_PORT ?? 5401}`;

test('a new customer pays on Stripe Checkout and sees the plan and the card', async ({
  page,
  request,
}) => {
  await newCustomerOnOrderPage(page, request, 'stripe');
  await page.getByRole('radio', { name: /^1 month/ }).check();
  await page.getByRole('button', { name: 'Continue to Stripe' }).click();

  await expect(page).toHaveURL(new RegExp(`^${standInUrl}/c/pay/cs_`));
  await expect(page.getByText(/\$12\.99/)).toBeVisible();
  await expect(page.getByLabel('Card number')).toHaveValue('4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay' }).click();

  await expect(page).toHaveURL(/\/en\/order-received\/thanks/);
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();
  await expect(page.getByTestId('thanks-plan')).toContainText('1 month');

  await page.getByRole('link', { name: 'Go to membership' }).click();
  await expect(page).toHaveURL(/\/billing\/membership-v2/);
  await expect(page.getByText('1 month').first()).toBeVisible();
  await expect(page.getByText(/4242/).first()).toBeVisible();
});

test('a declined card stays on Stripe’s page; Cancel brings the customer back with nothing bought', async ({
  page,
  request,
}) => {
  await newCustomerOnOrderPage(page, request, 'stripe-declined');
  await page.getByRole('radio', { name: /^1 month/ }).check();
  await page.getByRole('button', { name: 'Continue to Stripe' }).click();
  await expect(page).toHaveURL(new RegExp(`^${standInUrl}/c/pay/cs_`));
  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByRole('alert')).toHaveText('Your card was declined.');

  await page.getByRole('button', { name: 'Cancel' }).click();
  // Stripe goes back to the public order page, which sends a verified customer on to
  // billing's: wait for where it settles, not for the step between.
  await expect(page).toHaveURL(/\/en\/billing\/order-v2\?plan=/);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose your plan' })).toBeVisible();
  await page.goto('/en/billing/membership-v2');
  await expect(page).toHaveURL(/order-v2/);
});

test('a Stripe customer adds a card on Stripe’s page and finds it among the payment methods', async ({
  page,
  request,
}) => {
  await newCustomerOnOrderPage(page, request, 'stripe-card');
  await page.getByRole('radio', { name: /^1 month/ }).check();
  await page.getByRole('button', { name: 'Continue to Stripe' }).click();
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();

  await page.goto('/en/billing/payment-methods');
  await page.getByRole('button', { name: 'Add a card' }).click();
  await expect(page.getByTestId('add-card-on-provider')).toContainText('Stripe');
  await page.getByRole('button', { name: 'Continue to Stripe' }).click();
  await expect(page).toHaveURL(new RegExp(`^${standInUrl}/c/pay/cs_`));
  await page.getByLabel('Card number').fill('5555 5555 5555 4444');
  await page.getByRole('button', { name: 'Save card' }).click();

  await expect(page).toHaveURL(/\/en\/billing\/payment-methods\?card=added/);
  await expect(page.getByText(/4444/).first()).toBeVisible();
  await expect(page.getByText(/4242/).first()).toBeVisible();
});
