import { expect, test } from '@playwright/test';
import { registerVerifiedUser, signIn } from './support/auth.ts';
import { addToAuthenticator, codeFor } from './support/authenticator.ts';

test('sign in with the OpenID provider in a 500×600 popup', async ({ page }) => {
  // Two processes and a popup's full page load: it crossed 30 s once on a loaded 2-core run.
  test.slow();
  const login = `social-${Date.now().toString(36)}`;
  await page.goto('/en/signin?continue=account.profile&path=%2Fen%2Faccount%2Fprofile');
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  const popup = await popupOpened;
  await expect(popup.getByLabel('Account')).toBeVisible();
  expect(popup.viewportSize()).toEqual({ width: 500, height: 600 });
  await popup.getByLabel('Account').fill(login);
  // The page polls the popup, reads the code on our callback page and closes it. The wait
  // starts before the click: the click waits for the popup's navigation, and on a busy
  // runner the popup may already be closed by the time it returns.
  const closed = popup.waitForEvent('close', { timeout: 60_000 });
  await popup.getByRole('button', { name: 'Sign in' }).click();
  await closed;
  await expect(page).toHaveURL('/en/account/profile');
  await expect(page.getByLabel('E-mail address')).toHaveValue(`${login}@example.com`);
});

test('social sign-in of an account with two-factor asks for the code', async ({
  page,
  request,
}) => {
  // Sign-up, two-factor set-up by QR, sign-out, the popup and the code: a long journey that
  // takes over 30 s on a busy 2-core runner.
  test.slow();
  // A password account whose address the provider vouches for: the sign-in links to it.
  const { email, password } = await registerVerifiedUser(request, 'linked');
  const login = email.split('@')[0] ?? '';
  await signIn(page, email, password);
  await page.goto('/en/account/security');
  await page.getByRole('button', { name: 'Set up' }).click();
  const key = await addToAuthenticator(page.getByTestId('two-factor-qr'));
  await page.getByTestId('code-digit-1').click();
  await page.keyboard.type(await codeFor(key));
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await page.getByTestId('avatar-button').click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/en/signin');

  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  const popup = await popupOpened;
  await popup.getByLabel('Account').fill(login);
  const closed = popup.waitForEvent('close', { timeout: 60_000 });
  await popup.getByRole('button', { name: 'Sign in' }).click();
  await closed;

  // The step moves focus to its title as it appears (for screen readers): only once it has
  // may the code go in, or a slow runner's focus move swallows the typed digits.
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeFocused();
  await page.getByTestId('code-digit-1').click();
  await page.keyboard.type(await codeFor(key, 1));
  await expect(page).toHaveURL('/en/dashboard');
});
