import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { fillCard, newCustomerOnOrderPage, payFor, TEST_CARDS } from './support/billing.ts';

// §2 billing on the sandbox gateway (the embedded default): order, thanks, membership,
// invoices, a declined card, 3-D Secure, cancel and resume, an upgrade with proration.

test('a new customer pays with 4242, lands on thanks, sees the plan and downloads the invoice', async ({
  page,
  request,
}, testInfo) => {
  await newCustomerOnOrderPage(page, request, 'buyer');
  await payFor(page, /^1 month/, TEST_CARDS.visa);
  await expect(page).toHaveURL(/\/en\/order-received\/thanks/);
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();
  await expect(page.getByText('1 month').first()).toBeVisible();

  await page.getByRole('link', { name: 'Go to membership' }).click();
  await expect(page).toHaveURL(/\/billing\/membership-v2/);
  await expect(page.getByText('1 month').first()).toBeVisible();
  await expect(page.getByText(/^Renews on /)).toBeVisible();

  await page.goto('/en/billing/invoices');
  const download = page.waitForEvent('download');
  await page
    .getByRole('link', { name: /Download PDF/ })
    .first()
    .click();
  const file = testInfo.outputPath('invoice.pdf');
  await (await download).saveAs(file);
  expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
  const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
  expect(text).toContain('$12.99');
  expect(text).toMatch(/INV-\d{4}-\d{6}/);
});

test('a declined card shows the reason under the card field and sells nothing', async ({
  page,
  request,
}) => {
  await newCustomerOnOrderPage(page, request, 'declined');
  await payFor(page, /^1 month/, TEST_CARDS.declined);
  await expect(page.getByText('Your card was declined', { exact: false })).toBeVisible();
  await expect(page).toHaveURL(/order-v2/);
  // Nothing lost: the card number is still there to correct.
  await expect(page.getByLabel('Card number')).not.toHaveValue('');
  await page.goto('/en/billing/membership-v2');
  await expect(page).toHaveURL(/order-v2/);
});

test('a card that needs confirmation goes through the bank page, then to thanks', async ({
  page,
  request,
}) => {
  await newCustomerOnOrderPage(page, request, 'secure');
  await payFor(page, /^1 month/, TEST_CARDS.needsConfirmation);
  await expect(page.getByRole('heading', { name: 'Confirm your payment' })).toBeVisible();
  await page.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();
  // The payment's webhook may come a moment after the customer: the thanks page waits for it
  // (up to THANKS_POLLS seconds) and shows the plan; membership before then is the order page.
  await expect(page.getByTestId('thanks-plan')).toHaveText(/1 month/, { timeout: 10_000 });
  await page.goto('/en/billing/membership-v2');
  await expect(page.getByText(/^Renews on /)).toBeVisible();
});

test('cancel at period end with confirmation, then resume', async ({ page, request }) => {
  await newCustomerOnOrderPage(page, request, 'cancel');
  await payFor(page, /^1 month/, TEST_CARDS.visa);
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();
  await page.goto('/en/billing/membership-v2');

  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel your subscription?' });
  await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page.getByText(/^Ends on /)).toBeVisible();

  await page.getByRole('button', { name: 'Resume subscription' }).click();
  await expect(page.getByText(/^Renews on /)).toBeVisible();
});

test('an upgrade from monthly to yearly shows the proration before it charges', async ({
  page,
  request,
}) => {
  await newCustomerOnOrderPage(page, request, 'upgrade');
  await payFor(page, /^1 month/, TEST_CARDS.visa);
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();
  await page.goto('/en/billing/upgrade-v2');
  await page.getByRole('radio', { name: /^(Most popular )?1 year/ }).check();
  await page.getByRole('button', { name: 'Review the change' }).click();
  await expect(page.getByText('Credit for the unused time of your current plan')).toBeVisible();
  await expect(page.getByText('Due now')).toBeVisible();
  await page.getByRole('button', { name: /and change plan|^Change plan$/ }).click();
  await expect(page).toHaveURL(/\/billing\/membership-v2/);
  await expect(page.getByText('1 year').first()).toBeVisible();
  await expect(page.getByText(/^Renews on /)).toBeVisible();
});

test('a visitor chooses a plan, signs up when paying, and comes back to the same order', async ({
  page,
}) => {
  await page.goto('/en/order-v2');
  await page.getByRole('radio', { name: /^(Most popular )?1 year/ }).check();
  await page.getByTestId('pay').click();
  await expect(page).toHaveURL(/\/en\/signup/);
  const email = `visitor-${Date.now().toString(36)}@example.com`;
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Journey#2024pass');
  await page.getByLabel('Confirm password').fill('Journey#2024pass');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/order-v2/);
  await expect(page.getByRole('radio', { name: /^(Most popular )?1 year/ })).toBeChecked();
  await fillCard(page, TEST_CARDS.visa);
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();
});
