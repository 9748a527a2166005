import { expect, type Page, test } from '@playwright/test';
import { DEMO, signIn } from './support/auth.ts';
import { newCustomerOnOrderPage, payFor, TEST_CARDS } from './support/billing.ts';

// §7 subscriptions and invoices as staff use them: a refund reaches the customer's
// membership page (§4 refunded, with the reactivate action).

/** Waits until the page's websocket has joined the user's channel. */
async function live(page: Page): Promise<void> {
  await page.waitForEvent('websocket', {
    predicate: (socket) => socket.url().includes('/app/'),
  });
  // The channel is joined half a second after connecting (§9 authorisation delay).
  await page.waitForTimeout(800);
}

test("an admin refunds a customer's invoice in full and ends the plan: the membership shows refunded with reactivate", async ({
  browser,
  request,
}) => {
  const customerContext = await browser.newContext();
  const customer = await customerContext.newPage();
  const { email } = await newCustomerOnOrderPage(customer, request, 'refundme');
  await payFor(customer, /^1 month/, TEST_CARDS.visa);
  await expect(customer.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();
  const connected = live(customer);
  await customer.goto('/en/billing/membership-v2');
  await expect(customer.getByText(/^Renews on /)).toBeVisible();
  await connected;

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO.admin.email, DEMO.admin.password);
  await admin.goto(`/en/admin/customers?search=${encodeURIComponent(email)}`);
  await admin
    .getByRole('row')
    .filter({ hasText: email })
    .getByRole('link', { name: email })
    .click();
  await expect(admin).toHaveURL(/\/en\/admin\/customers\/\d+$/);

  const subscriptions = admin.locator('#customer-subscriptions');
  await expect(subscriptions.getByRole('row').filter({ hasText: '1 month' })).toContainText(
    'Active',
  );
  const invoices = admin.locator('#customer-invoices');
  const row = invoices.getByRole('row').filter({ hasText: /INV-\d{4}-\d{6}/ });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /^Refund/ }).click();

  const form = admin.getByRole('dialog', { name: /^Refund invoice INV-/ });
  await expect(form.getByText('All that is left ($12.99)')).toBeVisible();
  await form.getByLabel('End the subscription now too').check();
  await form.getByRole('button', { name: 'Refund', exact: true }).click();
  const confirmation = admin.getByRole('dialog', { name: 'Refund this invoice?' });
  await expect(confirmation).toContainText('the subscription ends now');
  await confirmation.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(admin.getByText('$12.99 refunded.')).toBeVisible();
  await expect(form).toHaveCount(0);
  await expect(row).toContainText('Refunded in full ($12.99)');
  await expect(subscriptions.getByRole('row').filter({ hasText: '1 month' })).toContainText(
    'Refunded',
  );

  // The customer's open page hears of it: no reload.
  await expect(customer.getByText('Refunded', { exact: true })).toBeVisible({ timeout: 5_000 });
  await expect(customer.getByRole('link', { name: 'Reactivate' })).toBeVisible();
  // And it stays so.
  await customer.reload();
  await expect(customer.getByText('Refunded', { exact: true })).toBeVisible();
  await expect(customer.getByRole('link', { name: 'Reactivate' })).toBeVisible();

  // Staff's own actions on it are gone: nothing left to refund or cancel.
  await expect(row.getByRole('button', { name: /^Refund/ })).toHaveCount(0);
  await customerContext.close();
  await adminContext.close();
});
