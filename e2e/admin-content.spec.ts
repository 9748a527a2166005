import { expect, test } from '@playwright/test';
import { DEMO, signIn } from './support/auth.ts';

// Issue 22 as staff use it: a post written in English, translated into Spanish on its own
// tab with its own address, scheduled, and listed with both languages; the demo's content
// is there to find; the editor shows the SEO check live and refuses a taken address under
// its field.

test('an admin writes a post in English, translates it into Spanish, schedules it, and the list shows both', async ({
  page,
}) => {
  const stamp = Date.now().toString(36);
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await page.goto('/en/admin/blog/posts');
  await expect(page).toHaveURL(/\/en\/admin\/blog\/posts\/overview$/);
  await page.getByRole('link', { name: 'New post' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New blog post' })).toBeVisible();

  await page.getByLabel('Title', { exact: true }).fill(`Travel safely ${stamp}`);
  // The address follows the title until it is typed.
  await expect(page.getByLabel('Address (slug)')).toHaveValue(`travel-safely-${stamp}`);
  await page
    .getByLabel('Text (Markdown)', { exact: true })
    .fill('## Before you go\n\nPack a **VPN**.');
  await page.getByRole('tab', { name: 'Preview' }).first().click();
  await expect(page.locator('.content-prose h2')).toHaveText('Before you go');
  await page.getByLabel('Focus keyphrase').fill('travel safely');
  await expect(page.getByTestId('seo-score')).toContainText('of 100');
  await expect(page.getByText('The title contains the keyphrase.')).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/en\/admin\/blog\/posts\/edit\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Edit blog post' })).toBeVisible();

  // Spanish: a tab of its own, started from the English text.
  await page.getByRole('tab', { name: /^Spanish/ }).click();
  await page.getByRole('button', { name: 'Copy from English' }).click();
  await page.getByLabel('Title', { exact: true }).fill(`Viajar seguro ${stamp}`);
  await page.getByLabel('Address (slug)').fill(`viajar-seguro-${stamp}`);
  await page.getByLabel('State').selectOption('scheduled');
  const tomorrow = new Date(Date.now() + 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  await page
    .getByLabel('Publish at', { exact: true })
    .fill(
      `${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}T09:00`,
    );
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: /^Spanish/ })).toContainText('Spanish: Scheduled');

  await page.getByRole('link', { name: 'Back to the list' }).click();
  const row = page.getByRole('row', { name: new RegExp(`Travel safely ${stamp}`) });
  await expect(row).toContainText('English: Draft');
  await expect(row).toContainText('Spanish: Scheduled');
});

test('the demo content is listed, and a taken address is refused under its field', async ({
  page,
}) => {
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await page.goto('/en/admin/help-center/articles/published');
  await page.getByLabel('Search titles and addresses').fill('add a device');
  await expect(page.getByRole('link', { name: 'How to Add a Device' })).toBeVisible();
  await page.goto('/en/admin/static-pages/overview');
  await page.getByRole('link', { name: /terms of service/i }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit static page' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);

  await page.goto('/en/admin/pages/create');
  await page.getByLabel('Title', { exact: true }).fill('Sign in again');
  await page.getByLabel('Address (slug)').fill('signin');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The site already uses this address.')).toBeVisible();
  await expect(page.getByLabel('Address (slug)')).toHaveAttribute('aria-invalid', 'true');
});
