import { expect, type Page, test } from '@playwright/test';
import { DEMO, signIn } from './support/auth.ts';

// §2 /admin/order/manage-plans: staff put a plan first from the keyboard, and the order page
// lists it first (the catalog is read afresh once staff change it, §9).

const FAMILY = 'Family, 1 year';

async function moveAndSave(admin: Page, key: 'Home' | 'End') {
  const handle = admin.getByRole('button', { name: `Move ${FAMILY}`, exact: true });
  await handle.focus();
  await admin.keyboard.press('Space');
  await admin.keyboard.press(key);
  await admin.keyboard.press('Space');
  await admin.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(admin.getByText('Plans saved')).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
}

test('an admin moves a plan to the top with the keyboard and the order page lists it first', async ({
  browser,
  page,
}) => {
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO.admin.email, DEMO.admin.password);
  await admin.goto('/en/admin/order/manage-plans/stripe');
  await expect(admin.getByRole('heading', { level: 1 })).toHaveText('Manage plans');
  const list = admin.getByRole('list', { name: /^Order of Card \(Stripe\) in USD/ });
  const names = list.getByTestId('plan-name');
  await expect(names.first()).toHaveText('1 month');
  await expect(names).toContainText([FAMILY]);

  await moveAndSave(admin, 'Home');
  await expect(admin.getByTestId('plans-announcer')).toContainText(
    `${FAMILY} dropped at position 1 of`,
  );
  await admin.reload();
  await expect(names.first()).toHaveText(FAMILY);

  await page.goto('/en/order-v2');
  const plans = page.getByTestId('plans');
  await expect(plans.locator('label').first()).toContainText(FAMILY);

  // Put back as it was, for journeys that run on the same server after this one.
  await moveAndSave(admin, 'End');
  await adminContext.close();
});
