import { expect, test } from '@playwright/test';
import { DEMO, signIn, submitSignIn, uniqueEmail } from './support/auth.ts';
import { linkFromMail } from './support/mail.ts';

const PASSWORD = 'Journey#2024pass';

test('sign up, read the e-mail, verify, land on the dashboard', async ({ page, request }) => {
  const email = uniqueEmail('signup');
  await page.goto('/en/signup');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();

  // Unverified: the dashboard sends the user to verification (§2 priority 8).
  await expect(page).toHaveURL('/en/email/verify');
  await expect(page.getByText(email)).toBeVisible();

  const link = await linkFromMail(request, email);
  expect(link).toContain('/en/email/verify?challenge=');
  await page.goto(link);
  await expect(page).toHaveURL('/en/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
});

test('sign out from the avatar menu', async ({ page }) => {
  await signIn(page, DEMO.customer.email, DEMO.customer.password);
  await expect(page).toHaveURL('/en/dashboard');
  await page.getByTestId('avatar-button').click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByTestId('logout-overlay')).toContainText("You're being logged out");
  await expect(page).toHaveURL('/en/signin');
  await expect(page.getByTestId('logout-overlay')).toHaveCount(0);
  // The session is gone on the server too: an account page asks for sign-in again.
  await page.goto('/en/account/profile');
  await expect(page).toHaveURL(/\/en\/signin\?continue=account\.profile/);
});

test('forgot password, read the e-mail, reset, sign in with the new password', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('reset');
  await page.goto('/en/signup');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL('/en/email/verify');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/en/signin');

  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL('/en/password/forgot');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();

  // The first message was the verification; the second is the reset link.
  const link = await linkFromMail(request, email, 2);
  expect(link).toContain('/en/password/forgot/verify?challenge=');
  await page.goto(link);
  await expect(page).toHaveURL('/en/password/reset');
  const next = 'Brand#new2025pass';
  await page.getByLabel('New password').fill(next);
  await page.getByLabel('Confirm password').fill(next);
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page).toHaveURL('/en/signin');

  await submitSignIn(page, email, PASSWORD);
  await expect(page.getByText('The e-mail address or password is incorrect.')).toBeVisible();
  await submitSignIn(page, email, next);
  // Resetting through the e-mailed link proved the address, so the dashboard opens.
  await expect(page).toHaveURL('/en/dashboard');
});

test('a signed-in visit to sign-in goes home', async ({ page }) => {
  await signIn(page, DEMO.customer.email, DEMO.customer.password);
  await page.goto('/en/signin');
  await expect(page).toHaveURL('/en');
});

test('after sign-in the user continues to the page they asked for', async ({ page }) => {
  await page.goto('/fr/account/security');
  await expect(page).toHaveURL(/\/fr\/signin\?continue=account\.security/);
  await page.getByLabel('Adresse e-mail').fill(DEMO.customer.email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(DEMO.customer.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL('/fr/account/security');
});

test('admin and author land on the admin dashboard with their menus', async ({ page }) => {
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await expect(page).toHaveURL('/en/admin/dashboard');
  const menu = page.getByTestId('aside').getByTestId('menu');
  await expect(menu.getByRole('link', { name: 'Customers' })).toBeVisible();
  await expect(menu.getByRole('link')).toHaveCount(31);

  await page.getByTestId('avatar-button').click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/en/signin');

  await submitSignIn(page, DEMO.author.email, DEMO.author.password);
  await expect(page).toHaveURL('/en/admin/dashboard');
  await expect(menu.getByRole('link', { name: 'Blog posts' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Customers' })).toHaveCount(0);
  // An author on an admin-only screen gets page-not-found (§6).
  await page.goto('/en/admin/customers');
  await expect(page).toHaveURL('/en/page-not-found');
});

test('a customer gets the user menu, billing pointing at their membership', async ({ page }) => {
  // The demo customer bought the yearly plan when the demo data was seeded (§2 menus:
  // billing points at membership when a subscription exists, else at the order page).
  await signIn(page, DEMO.customer.email, DEMO.customer.password);
  const menu = page.getByTestId('aside').getByTestId('menu');
  await expect(menu.getByRole('link', { name: 'Security' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Billing' })).toHaveAttribute(
    'href',
    '/en/billing/membership-v2',
  );
  await expect(menu.getByRole('link', { name: 'Customers' })).toHaveCount(0);
  await page.goto('/en/admin/dashboard');
  await expect(page).toHaveURL('/en/page-not-found');
});
