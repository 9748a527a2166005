import { expect, type Page, test } from '@playwright/test';
import { registerVerifiedUser, submitSignIn } from './support/auth.ts';

// A passkey made and used by Chromium's own WebAuthn stack, with a virtual authenticator in
// place of the person's phone or laptop (CDP WebAuthn domain): a platform authenticator
// that keeps discoverable credentials and verifies its user, answering at once.
//
// Browsers refuse an IP address as a passkey's site, so the page is opened at localhost
// (the same server; with APP_URL on 127.0.0.1 the relying party is `localhost`).

test('add a passkey on the security page, then sign in with it from the autofill and the button', async ({
  page,
  request,
}, testInfo) => {
  const site = String(testInfo.project.use.baseURL).replace('127.0.0.1', 'localhost');
  const { email, password } = await registerVerifiedUser(request, 'passkey');

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  await page.goto(`${site}/en/signin`);
  await submitSignIn(page, email, password);
  await expect(page).toHaveURL(`${site}/en/dashboard`);

  // Adding: the password, the browser's ceremony, then a name.
  await page.goto(`${site}/en/account/security`);
  const panel = page.getByRole('region', { name: 'Passkeys' });
  await expect(panel.getByText('No passkeys yet')).toBeVisible();
  await panel.getByRole('button', { name: 'Add a passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
  await dialog.getByLabel('Password').fill(password);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  const name = dialog.getByLabel('Name');
  await expect(name).toBeFocused();
  await name.fill('Journey laptop');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  const item = panel.getByTestId('passkey');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('Journey laptop');
  await expect(item).toContainText('Never used');

  // The authenticator holds one discoverable credential for this site, for this account.
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
  const signCount = credentials[0]?.signCount ?? 0;
  const signCountOf = async () =>
    (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0]?.signCount ?? 0;

  // Signed out, the sign-in page asks the browser for this site's passkeys in the e-mail
  // field's autofill (conditional mediation); the virtual authenticator answers at once, as
  // a person picking the passkey there would: no e-mail, no password, no two-factor code.
  await signOut(page, site);
  await expect(page).toHaveURL(`${site}/en/dashboard`);
  const afterAutofill = await signCountOf();
  expect(afterAutofill).toBeGreaterThan(signCount);

  // The button: a browser whose autofill does not offer passkeys (the page is loaded anew
  // with conditional mediation reported unavailable), so only the button's prompt answers.
  await page.addInitScript(() => {
    const credential = (globalThis as { PublicKeyCredential?: Record<string, unknown> })
      .PublicKeyCredential;
    if (credential) credential.isConditionalMediationAvailable = async () => false;
  });
  await page.goto(`${site}/en/account/security`);
  await expect(panel.getByTestId('passkey')).toContainText('Last used');
  await signOut(page, site);
  await expect(page).toHaveURL(`${site}/en/signin`);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(`${site}/en/dashboard`);
  expect(await signCountOf()).toBeGreaterThan(afterAutofill);
});

async function signOut(page: Page, site: string): Promise<void> {
  await page.getByTestId('avatar-button').click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).not.toHaveURL(`${site}/en/account/security`);
}
