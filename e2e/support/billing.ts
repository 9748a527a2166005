import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { DEMO, registerVerifiedUser, signIn } from './auth.ts';

// Billing journeys on the sandbox gateway, through the screens as a customer uses them.

export const TEST_CARDS = {
  visa: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  needsConfirmation: '4000 0027 6000 3184',
  chargesFail: '4000 0000 0000 0341',
} as const;

/** A new, verified, signed-in customer on the order page. */
export async function newCustomerOnOrderPage(
  page: Page,
  request: APIRequestContext,
  prefix: string,
) {
  const account = await registerVerifiedUser(request, prefix);
  await signIn(page, account.email, account.password);
  await page.goto('/en/order-v2');
  await expect(page.getByRole('heading', { level: 1, name: 'Choose your plan' })).toBeVisible();
  return account;
}

export async function fillCard(page: Page, number: string, scope = page.locator('body')) {
  await scope.getByLabel('Card number').fill(number);
  await scope.getByLabel('Expiry (MM/YY)').fill('12/34');
  await scope.getByLabel('CVC').fill('123');
  await scope.getByLabel('Name on card').fill('Journey Customer');
}

/** Chooses a plan by name and pays with `card`. */
export async function payFor(page: Page, plan: RegExp, card: string) {
  await page.getByRole('radio', { name: plan }).check();
  await fillCard(page, card);
  await page.getByRole('button', { name: /^Pay / }).click();
}

/**
 * Moves the sandbox's billing clock (the test clock), as a test of renewals does. The clock
 * is an admin's: `request` signs in as the demo admin for the move, and out again.
 */
export async function advanceBillingClock(request: APIRequestContext, days: number) {
  const headers = { 'x-requested-with': 'fetch' };
  const signedIn = await request.post('/api/public/v1/auth/sign-in', {
    headers,
    data: DEMO.admin,
  });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  const moved = await request.post('/sandbox/v1/test-clock/advance', { headers, data: { days } });
  expect(moved.status(), await moved.text()).toBe(200);
  await request.post('/api/all/v1/auth/sign-out', { headers });
}
