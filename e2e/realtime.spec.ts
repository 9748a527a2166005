import { expect, type Page, test } from '@playwright/test';
import { registerVerifiedUser, signIn } from './support/auth.ts';

// §4 Live events over the built-in Pusher-compatible server, seen from real pages.

/** Waits until the page's websocket has joined the user's channel. */
async function live(page: Page): Promise<void> {
  await page.waitForEvent('websocket', {
    predicate: (socket) => socket.url().includes('/app/'),
  });
  // The channel is joined half a second after connecting (§9 authorisation delay).
  await page.waitForTimeout(800);
}

test('a name changed in one tab shows in the other without a reload', async ({
  context,
  request,
}) => {
  const { email, password } = await registerVerifiedUser(request, 'tabs');
  const first = await context.newPage();
  await signIn(first, email, password);
  const second = await context.newPage();
  const connected = live(second);
  await second.goto('/en/account/security');
  await connected;

  await first.goto('/en/account/profile');
  await first.getByLabel('Name (optional)').fill('Live Update');
  await first.getByRole('button', { name: 'Save changes' }).click();
  await expect(first.getByText('Your profile has been updated.')).toBeVisible();
  await expect(second.getByTestId('avatar-button')).toContainText('Live Update');
});

test('signing out in one tab signs out the other', async ({ context, request }) => {
  const { email, password } = await registerVerifiedUser(request, 'tabout');
  const first = await context.newPage();
  await signIn(first, email, password);
  const second = await context.newPage();
  await second.goto('/en/account/profile');
  await expect(second.getByTestId('avatar-button')).toBeVisible();

  await first.getByTestId('avatar-button').click();
  await first.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(first).toHaveURL('/en/signin');
  await expect(second).toHaveURL('/en/signin');
});

test('the browser extension can sign the page out', async ({ page, request }) => {
  const { email, password } = await registerVerifiedUser(request, 'extension');
  await signIn(page, email, password);
  // As the extension's content script does, in the page's own window.
  await page.evaluate(
    "window.postMessage({ source: 'shieldline-extension', type: 'logout' }, window.location.origin)",
  );
  await expect(page).toHaveURL('/en/signin');
  await page.goto('/en/account/profile');
  await expect(page).toHaveURL(/\/en\/signin\?continue=account\.profile/);
});

test('revoking a device from another browser logs it out within 2 s', async ({
  browser,
  request,
}) => {
  const { email, password } = await registerVerifiedUser(request, 'revoke');
  const phone = await browser.newContext({ userAgent: 'Mozilla/5.0 (iPhone) Safari/604.1' });
  const desk = await browser.newContext();
  const phonePage = await phone.newPage();
  const deskPage = await desk.newPage();
  const connected = live(phonePage);
  await signIn(phonePage, email, password);
  await connected;
  await signIn(deskPage, email, password);

  await deskPage.goto('/en/account/security');
  const other = deskPage.getByTestId('device').filter({ hasText: 'Safari on iOS' });
  await other.getByRole('button', { name: 'Log out' }).click();
  const dialog = deskPage.getByRole('dialog', { name: 'Log out this device?' });
  await dialog.getByLabel('Password').fill(password);
  await dialog.locator('button[type="submit"]').click();
  await expect(dialog).toHaveCount(0);

  // No reload: the live event takes the phone to sign-in by itself.
  await expect(phonePage).toHaveURL(/\/en\/signin/, { timeout: 2_000 });
  await phone.close();
  await desk.close();
});
