import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { linkFromMail } from './mail.ts';

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

/** The password of every account registerVerifiedUser makes. */
export const JOURNEY_PASSWORD = 'Journey#2024pass';

const API_HEADERS = { 'x-requested-with': 'fetch' };

/**
 * A new customer with a verified address, made through the API as the browser would (sign
 * up, open the e-mailed link), so a journey can start from the screen it is about.
 */
export async function registerVerifiedUser(
  request: APIRequestContext,
  prefix: string,
): Promise<{ email: string; password: string }> {
  const email = uniqueEmail(prefix);
  const signUp = await request.post('/api/public/v1/auth/sign-up', {
    headers: API_HEADERS,
    data: { email, password: JOURNEY_PASSWORD, password_confirmation: JOURNEY_PASSWORD },
  });
  expect(signUp.status()).toBe(201);
  const challenge = new URL(await linkFromMail(request, email)).searchParams.get('challenge');
  const verify = await request.post('/api/all/v1/auth/email/verify', {
    headers: API_HEADERS,
    data: { challenge },
  });
  expect(verify.status()).toBe(200);
  await request.post('/api/all/v1/auth/sign-out', { headers: API_HEADERS });
  return { email, password: JOURNEY_PASSWORD };
}
