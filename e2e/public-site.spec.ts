import { expect, test } from '@playwright/test';
import { fillCard, TEST_CARDS } from './support/billing.ts';

// Issue 23 as visitors meet it: the public pages are whole HTML (read without JavaScript),
// and a visitor goes from the help center to pricing to the order page and pays without a
// reload. An author's post public at once is in admin-content.spec.ts, beside the journey
// that shares its setting.

test('a visitor reads a post with JavaScript switched off', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/en/blog');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Blog');
  // A demo post (journeys running beside this one publish posts of their own).
  const title = 'The WireGuard Protocol Explained in Plain English';
  await page.getByRole('main').getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(page.getByRole('article').getByText(/min read/)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Breadcrumbs' })).toContainText('Blog');
  // The table of contents leads into the text.
  const contents = page.getByRole('navigation', { name: 'On this page' });
  const entry = contents.getByRole('link').first();
  const target = (await entry.getAttribute('href')) ?? '';
  await entry.click();
  await expect(page).toHaveURL(new RegExp(`${target}$`));
  // The language menu opens without a script, as a disclosure.
  await page.getByLabel('Language').click();
  await expect(page.getByRole('link', { name: 'Français' })).toBeVisible();
  await context.close();
});

test('a visitor goes from a help article to pricing to the order page and pays, without a reload', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto('/en/help-center');
  await page.getByRole('link', { name: 'How to Add a Device' }).first().click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('How to Add a Device');
  // Hydrated: the vote answers in place.
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByText('Thank you for your feedback.')).toBeVisible();
  // Hydrated from data without the text's HTML (it is in the page already): the text stays.
  await expect(page.getByRole('article').locator('.content-prose p').first()).not.toBeEmpty();

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Pricing' })
    .click();
  const plans = page.getByTestId('site-plans');
  await expect(plans).toBeVisible();
  // From here the app starts in this document: a mark on the window survives the move.
  await page.evaluate(() => {
    (globalThis as unknown as { stayed: boolean }).stayed = true;
  });
  await page.getByRole('link', { name: 'Choose 1 year' }).click();
  await expect(page).toHaveURL(/\/en\/order-v2\?plan=\d+/);
  await expect(page.getByRole('radio', { name: /^(Most popular )?1 year/ })).toBeChecked();
  expect(await page.evaluate(() => (globalThis as unknown as { stayed?: boolean }).stayed)).toBe(
    true,
  );

  await page.getByTestId('pay').click();
  await expect(page).toHaveURL(/\/en\/signup/);
  const email = `site-${Date.now().toString(36)}@example.com`;
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Journey#2024pass');
  await page.getByLabel('Confirm password').fill('Journey#2024pass');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/order-v2/);
  await fillCard(page, TEST_CARDS.visa);
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();

  // Back to a public page, inside the app now: shown from its data, in the app's frame.
  await page.getByRole('banner').getByRole('link', { name: 'Help center' }).click();
  await expect(page).toHaveURL('/en/help-center');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Help center');
  expect(await page.evaluate(() => (globalThis as unknown as { stayed?: boolean }).stayed)).toBe(
    true,
  );
  expect(errors, 'no console errors (hydration, CSP)').toEqual([]);
});
