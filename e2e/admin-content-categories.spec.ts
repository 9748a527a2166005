import { expect, type Page, test } from '@playwright/test';
import { DEMO, signIn } from './support/auth.ts';

// §2 /admin/help-center/categories/sorting: staff move a help-center category from the
// keyboard, save, and the new order is what the screen shows after a reload.

async function moveAndSave(page: Page, name: string, key: 'Home' | 'End') {
  const handle = page.getByRole('button', { name: `Move ${name}`, exact: true });
  await handle.focus();
  await page.keyboard.press('Space');
  await page.keyboard.press(key);
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: 'Save order', exact: true }).click();
  await expect(page.getByText('Order saved')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save order', exact: true })).toBeDisabled();
}

test('an admin moves a help-center category to the end by keyboard and the order stays after a reload', async ({
  page,
}) => {
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await page.goto('/en/admin/help-center/categories/sorting');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Order of help-center categories',
  );
  const top = page.getByRole('list', { name: 'Order of the top-level categories' });
  const names = top.getByTestId('category-name');
  await expect(names.first()).toBeVisible();
  const before = await names.allTextContents();
  expect(before.length).toBeGreaterThan(1);
  const [first, ...rest] = before as [string, ...string[]];

  await moveAndSave(page, first, 'End');
  await expect(page.getByTestId('categories-announcer')).toContainText(
    `${first} dropped at position ${before.length} of ${before.length}.`,
  );
  await page.reload();
  await expect(names).toHaveText([...rest, first]);

  // Put back as it was, for journeys that run on the same server after this one.
  await moveAndSave(page, first, 'Home');
  await page.reload();
  await expect(names).toHaveText(before);
});
