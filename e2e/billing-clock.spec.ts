import { expect, test } from '@playwright/test';
import {
  advanceBillingClock,
  fillCard,
  newCustomerOnOrderPage,
  payFor,
  TEST_CARDS,
} from './support/billing.ts';

// Journeys that move the sandbox's test clock, which every subscription of the server
// shares: they run in their own project, after all the others (playwright.config.ts).

test('a failed renewal leads to fix-payment-method; a new card pays and the plan is active again', async ({
  page,
  request,
}) => {
  test.slow();
  await newCustomerOnOrderPage(page, request, 'renewal');
  await payFor(page, /^1 month/, TEST_CARDS.visa);
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();

  // Renewals go to a card whose charges fail.
  await page.goto('/en/billing/payment-methods');
  await page.getByRole('button', { name: 'Add a card' }).click();
  await fillCard(page, TEST_CARDS.chargesFail);
  await page
    .getByRole('button', { name: /Save card|Add card/ })
    .last()
    .click();
  await expect(page.getByText(/0341/).first()).toBeVisible();
  await page
    .getByRole('button', { name: /Make default/ })
    .first()
    .click();

  await page.goto('/en/billing/membership-v2');
  await expect(page.getByText(/^Renews on /)).toBeVisible();
  await advanceBillingClock(request, 31);
  // The page hears of it live, without a reload.
  await expect(page.getByText('Your last payment did not go through')).toBeVisible({
    timeout: 15_000,
  });

  await page.getByRole('link', { name: 'Fix payment method' }).click();
  await expect(page).toHaveURL(/fix-payment-method/);
  await page.getByRole('radio', { name: 'A new card' }).check();
  await fillCard(page, TEST_CARDS.visa);
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(
    page.getByText('Payment received, your subscription is active again.'),
  ).toBeVisible();
  await page.goto('/en/billing/membership-v2');
  await expect(page.getByText(/^Renews on /)).toBeVisible();
});
