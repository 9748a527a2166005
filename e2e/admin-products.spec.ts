import { expect, test } from '@playwright/test';
import { DEMO, signIn } from './support/auth.ts';

// §2 /admin/payment-gateways/stripe/products: staff add a plan to the card service (the
// sandbox sells it on this server) and a visitor finds it on the order page at once (the
// catalog is read afresh in this process once staff change it, §9 otherwise).

test('an admin creates a visible plan and a visitor sees it on the order page', async ({
  browser,
  page,
}) => {
  const name = `Aurora plan ${Date.now().toString(36)}`;
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO.admin.email, DEMO.admin.password);
  await admin.goto('/en/admin/payment-gateways/stripe/products');
  await expect(admin.getByRole('heading', { level: 1 })).toHaveText('Stripe products');
  await expect(admin.getByRole('link', { name: 'Gateway settings' })).toBeVisible();
  await expect(admin.getByRole('table', { name: 'Stripe products' })).toContainText('1 month');

  await admin.getByRole('button', { name: 'Create product' }).click();
  const dialog = admin.getByRole('dialog', { name: 'New product' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Plan family').fill('aurora');
  // A price the form cannot take is refused under its field, nothing is sent.
  await dialog.getByLabel('Price', { exact: true }).fill('7.777');
  await dialog.getByRole('button', { name: 'Create product' }).click();
  await expect(dialog.getByText('This value is not valid.')).toBeVisible();
  await dialog.getByLabel('Price', { exact: true }).fill('7.77');
  await dialog.getByLabel('Currency').fill('USD');
  await dialog.getByLabel('Billing period').selectOption('month');
  // Last on the order page, so the other journeys' plans keep their places.
  await dialog.getByLabel('Sort order').fill('9000');
  await dialog.getByRole('button', { name: 'Create product' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(admin).toHaveURL(/\/en\/admin\/payment-gateways\/stripe\/products\/\d+$/);
  await expect(admin.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(admin.getByLabel('Price', { exact: true })).toHaveValue('7.77');

  await page.goto('/en/order-v2');
  const plans = page.getByTestId('plans');
  const plan = plans.locator('label').filter({ hasText: name });
  await expect(plan).toHaveCount(1);
  const price = new Intl.NumberFormat('en', {
    style: 'currency',
    currency: 'USD',
    currencyDisplay: 'narrowSymbol',
  }).format(7.77);
  await expect(plan).toContainText(price);

  // Deleted (nobody bought it): it leaves the order page too.
  await admin.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = admin.getByRole('dialog', { name: `Delete ${name}?` });
  await confirm.getByRole('button', { name: 'Delete product' }).click();
  await expect(admin).toHaveURL(/\/en\/admin\/payment-gateways\/stripe\/products$/);
  await expect(admin.getByText(`${name} was deleted.`)).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('plans').locator('label').first()).toBeVisible();
  await expect(page.getByTestId('plans')).not.toContainText(name);
  await adminContext.close();
});
