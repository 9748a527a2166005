import { expect, type Page, test } from '@playwright/test';
import { registerVerifiedUser, signIn, submitSignIn } from './support/auth.ts';
import { addToAuthenticator, codeFor } from './support/authenticator.ts';
import { linkFromMail, mailTo } from './support/mail.ts';

async function typeCode(page: Page, code: string): Promise<void> {
  await page.getByTestId('code-digit-1').click();
  await page.keyboard.type(code);
}

async function confirmWithPassword(page: Page, dialogName: string, password: string) {
  const dialog = page.getByRole('dialog', { name: dialogName });
  await dialog.getByLabel('Password').fill(password);
  await dialog.locator('button[type="submit"]').click();
  await expect(dialog).toHaveCount(0);
}

test('enable two-factor by scanning the QR code, sign out, sign in with a code', async ({
  page,
  request,
}) => {
  const { email, password } = await registerVerifiedUser(request, 'totp');
  await signIn(page, email, password);
  await page.goto('/en/account/security');
  await page.getByRole('button', { name: 'Set up' }).click();

  const dialog = page.getByRole('dialog', { name: 'Set up two-factor authentication' });
  const qr = dialog.getByTestId('two-factor-qr');
  await expect(qr).toBeVisible();
  await expect(page.locator('body')).toHaveClass(/modal-opened/);

  // The phone reads the QR code; what it finds is a standard key URI for this account.
  const key = await addToAuthenticator(qr);
  expect(key).toMatchObject({
    type: 'totp',
    issuer: 'Shieldline VPN',
    labelIssuer: 'Shieldline VPN',
    account: email,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  });
  expect(key.secret).toMatch(/^[A-Z2-7]{32}$/);
  // The key to type by hand is the same one.
  const typed = (await dialog.getByTestId('two-factor-secret').textContent()) ?? '';
  expect(typed.replace(/\s/g, '')).toBe(key.secret);

  // A wrong code first: the message shows under the boxes and focus is on the last digit.
  const right = await codeFor(key);
  await typeCode(page, right === '000000' ? '111111' : '000000');
  await expect(dialog.getByText('The code is incorrect.', { exact: false })).toBeVisible();
  await expect(page.getByTestId('code-digit-6')).toBeFocused();

  await typeCode(page, await codeFor(key));
  const codes = page.getByTestId('recovery-codes');
  await expect(codes.getByRole('listitem')).toHaveCount(10);
  await expect(page.getByText('Two-factor authentication is now on.')).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download these codes' }).click();
  expect((await download).suggestedFilename()).toBe('2fa_recovery_codes.txt');
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByTestId('two-factor-state')).toHaveAttribute('data-state', 'on');

  await page.getByTestId('avatar-button').click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/en/signin');

  await submitSignIn(page, email, password);
  // Focused once the step has moved focus to its title: typing before that could be lost.
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeFocused();
  // The code that confirmed the setup is spent; the next step's code is accepted.
  await typeCode(page, await codeFor(key, 1));
  await expect(page).toHaveURL('/en/dashboard');
});

test('change the e-mail address through the message sent to the new one', async ({
  page,
  request,
}) => {
  const { email, password } = await registerVerifiedUser(request, 'move');
  const next = email.replace('move-', 'moved-');
  await signIn(page, email, password);
  await page.goto('/en/account/profile');
  const save = page.getByRole('button', { name: 'Save changes' });
  await expect(save).toBeDisabled();
  await page.getByLabel('E-mail address').fill(next);
  await save.click();
  await expect(page.getByText('Check your new email address.')).toBeVisible();
  await expect(page.getByTestId('email-change-notice')).toContainText(next);

  const link = await linkFromMail(request, next);
  expect(link).toContain('/en/account/email/change/verify?challenge=');
  await page.goto(link);
  await expect(page).toHaveURL('/en/account/profile');
  await expect(page.getByText('Your e-mail address has been changed.')).toBeVisible();
  await expect(page.getByLabel('E-mail address')).toHaveValue(next);
  await expect(page.getByTestId('email-change-notice')).toHaveCount(0);
  expect(await mailTo(request, email)).toHaveLength(1);
});

test('log out another device and see that session end', async ({ browser, request }) => {
  const { email, password } = await registerVerifiedUser(request, 'devices');
  const phone = await browser.newContext({ userAgent: 'Mozilla/5.0 (iPhone) Safari/604.1' });
  const desk = await browser.newContext();
  const phonePage = await phone.newPage();
  const deskPage = await desk.newPage();
  await signIn(phonePage, email, password);
  await signIn(deskPage, email, password);

  await deskPage.goto('/en/account/security');
  const devices = deskPage.getByTestId('device');
  await expect(devices).toHaveCount(2);
  await expect(devices.first()).toHaveAttribute('data-current', 'true');
  await expect(devices.first()).toContainText('This device');
  const other = devices.filter({ hasText: 'Safari on iOS' });
  await other.getByRole('button', { name: 'Log out' }).click();
  await confirmWithPassword(deskPage, 'Log out this device?', password);
  await expect(deskPage.getByText('The device has been logged out.')).toBeVisible();
  await expect(devices).toHaveCount(1);

  // The phone's session is gone: its next page load asks for sign-in again.
  await phonePage.reload();
  await expect(phonePage).toHaveURL(/\/en\/signin/);

  // Logging out everywhere ends this session too.
  await deskPage.getByRole('button', { name: 'Log out everywhere' }).click();
  await confirmWithPassword(deskPage, 'Log out of every device?', password);
  await expect(deskPage).toHaveURL('/en/signin');
  await deskPage.goto('/en/account/security');
  await expect(deskPage).toHaveURL(/\/en\/signin\?continue=account\.security/);
  await phone.close();
  await desk.close();
});

test('delete the account, land on reactivation, reactivate', async ({ page, request }) => {
  const { email, password } = await registerVerifiedUser(request, 'delete');
  await signIn(page, email, password);
  await page.goto('/en/account/security');
  await page.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await dialog.getByLabel('Password').fill('Wrong#password1');
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(dialog.getByText('The password is incorrect.')).toBeVisible();
  await confirmWithPassword(page, 'Delete your account?', password);

  await expect(page).toHaveURL('/en/reactivate-account');
  await expect(page.getByTestId('delete-at')).toBeVisible();
  // Deactivated, the account area is closed (§4, §6).
  await page.goto('/en/account/profile');
  await expect(page).toHaveURL('/en/reactivate');
  await page.getByRole('button', { name: 'Reactivate my account' }).click();
  await expect(page).toHaveURL('/en/dashboard');
  await page.goto('/en/account/profile');
  await expect(page).toHaveURL('/en/account/profile');
});

test('upload a profile picture and see it in the header', async ({ page, request }) => {
  const { email, password } = await registerVerifiedUser(request, 'photo');
  await signIn(page, email, password);
  await page.goto('/en/account/profile');
  // A 1×1 PNG: the server re-encodes it into a 256×256 WebP.
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  await page.getByTestId('photo-input').setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: png,
  });
  await expect(page.getByText('Your profile picture has been updated.')).toBeVisible();
  const photo = page.getByTestId('profile-photo');
  await expect(photo).toHaveAttribute('src', /^\/media\/avatars\/[\w-]+\.webp$/);
  await expect(page.getByTestId('avatar-button').locator('img')).toHaveAttribute(
    'src',
    (await photo.getAttribute('src')) ?? '',
  );

  await page.getByTestId('photo-input').setInputFiles({
    name: 'fake.png',
    mimeType: 'image/png',
    buffer: Buffer.from('not an image at all'),
  });
  await expect(page.getByTestId('photo-error')).toContainText('not an image we can use');
});
