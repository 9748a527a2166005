import { expect, type Page } from '@playwright/test';

export const DEMO = {
  admin: { email: 'admin@example.com', password: 'Admin#2024pass' },
  author: { email: 'author@example.com', password: 'Author#2024pass' },
  customer: { email: 'customer@example.com', password: 'Customer#2024pass' },
} as const;

let sequence = 0;
/** An address no other test (or earlier run on the same server) uses. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${++sequence}@example.com`;
}

/** Fills and submits the sign-in form the page is on. */
export async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/en/signin');
  await submitSignIn(page, email, password);
  await expect(page).not.toHaveURL(/\/signin/);
}
