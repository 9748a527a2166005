import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { formatMoney } from '#shared/money.ts';
import { DEMO, signIn } from './support/auth.ts';
import { newCustomerOnOrderPage, payFor, TEST_CARDS } from './support/billing.ts';

// §2 /admin/coupons as staff use it, and what a customer then pays: a coupon made on the
// admin screens discounts the order and shows on the customer's invoice; its pre-applied
// link opens the order page with it applied.

/** The demo's 1-month plan in dollars (server/modules/billing/demo-catalog.ts). */
const MONTH_USD = 1299;

test('an admin creates a coupon; a customer orders with it and the invoice shows the discount; its link pre-applies it', async ({
  browser,
  page,
  request,
}, testInfo) => {
  const code = `SAVE${Date.now().toString(36).toUpperCase()}`;
  const discount = Math.round(MONTH_USD * 0.25);
  const usd = (amount: number) => formatMoney({ amount, currency: 'USD' }, 'en');

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO.admin.email, DEMO.admin.password);
  await admin.goto('/en/admin/coupons');
  await expect(admin).toHaveURL(/\/en\/admin\/coupons\/overview$/);
  await admin.getByRole('button', { name: 'Create coupon' }).click();
  const dialog = admin.getByRole('dialog', { name: 'New coupon' });
  await dialog.getByLabel('Code').fill(code);
  await dialog.getByLabel('Name').fill('Journey 25% off');
  await dialog.getByLabel('Percent off').fill('25');
  await dialog.getByLabel('Duration').selectOption('once');
  await dialog.getByLabel('Pre-applied by link').check();
  await dialog.getByRole('button', { name: 'Create coupon' }).click();
  await expect(admin).toHaveURL(/\/en\/admin\/coupons\/\d+$/);
  await expect(admin.getByRole('heading', { level: 1 })).toHaveText(code);
  await expect(admin.getByTestId('coupon-state')).toHaveText('Active');
  const link = (await admin.getByTestId('coupon-link').textContent()) ?? '';
  expect(link).toContain(`/api/public/v1/coupons/apply/${code}?lang=en`);

  // A customer types the code on the order page and pays with it.
  await newCustomerOnOrderPage(page, request, 'coupon');
  await page.getByRole('radio', { name: /^1 month/ }).check();
  await page.getByLabel('Coupon code').fill(code.toLowerCase());
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(page.getByText(`Coupon ${code} applied`)).toBeVisible();
  await payFor(page, /^1 month/, TEST_CARDS.visa);
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();

  // The invoice charges the discounted price, and its PDF names the coupon and the discount.
  await page.goto('/en/billing/invoices');
  const invoice = page.getByTestId('invoice').first();
  await expect(invoice).toContainText(usd(MONTH_USD - discount));
  const download = page.waitForEvent('download');
  await invoice.getByRole('link', { name: /Download PDF/ }).click();
  const file = testInfo.outputPath('discounted-invoice.pdf');
  await (await download).saveAs(file);
  const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
  expect(text).toContain(code);
  expect(text).toContain(usd(discount));
  expect(text).toContain(usd(MONTH_USD - discount));

  // Staff see who redeemed it and what the invoice took off.
  await admin.reload();
  await expect(admin.getByTestId('redemption-discount')).toContainText(usd(discount));

  // The pre-applied list offers the same link to copy.
  await admin.getByRole('link', { name: 'All coupons' }).click();
  await admin.getByRole('link', { name: 'Pre-applied', exact: true }).click();
  await admin.getByLabel('Search by code or name').fill(code);
  const row = admin.getByRole('row').filter({ hasText: code });
  await expect(row.getByTestId('coupon-link')).toHaveText(link);
  await expect(row.getByRole('button', { name: `Copy the link of coupon ${code}` })).toBeVisible();

  // A visitor following the shared link lands on the order page with the coupon applied.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(visitor).toHaveURL(/\/en\/order-v2/);
  await expect(visitor.getByText(`Coupon ${code} applied`)).toBeVisible();
  await visitorContext.close();
  await adminContext.close();
});
