import { expect, type Page, test } from '@playwright/test';
import {
  DEMO,
  JOURNEY_PASSWORD,
  registerVerifiedUser,
  signIn,
  uniqueEmail,
} from './support/auth.ts';
import { linkFromMail } from './support/mail.ts';

// §2 /admin/customers and /admin/logs as staff use them, and what others get there.

/** Waits until the page's websocket has joined the user's channel. */
async function live(page: Page): Promise<void> {
  await page.waitForEvent('websocket', {
    predicate: (socket) => socket.url().includes('/app/'),
  });
  // The channel is joined half a second after connecting (§9 authorisation delay).
  await page.waitForTimeout(800);
}

async function confirmWithPassword(page: Page, title: RegExp | string, password: string) {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByLabel('Password').fill(password);
  await dialog.locator('button[type="submit"]').click();
  await expect(dialog).toHaveCount(0);
}

test('an admin finds a customer, blocks them (their page signs out within 2 s), unblocks and changes their e-mail', async ({
  browser,
  request,
}) => {
  const { email, password } = await registerVerifiedUser(request, 'blockme');
  const customerContext = await browser.newContext();
  const customer = await customerContext.newPage();
  const connected = live(customer);
  await signIn(customer, email, password);
  await connected;

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO.admin.email, DEMO.admin.password);
  await admin.goto('/en/admin/customers');
  await expect(admin.getByRole('heading', { level: 1 })).toHaveText('Customers');
  await admin.getByLabel('Search by e-mail, name or username').fill(email.split('@')[0] ?? email);
  await expect(admin).toHaveURL(/search=blockme/);
  const row = admin.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await row.getByRole('link', { name: email }).click();
  await expect(admin).toHaveURL(/\/en\/admin\/customers\/\d+$/);
  await expect(admin.getByTestId('customer-status')).toHaveText('Active');

  await admin.getByRole('button', { name: 'Block', exact: true }).click();
  const started = Date.now();
  await confirmWithPassword(admin, /^Block /, DEMO.admin.password);
  await expect(admin.getByTestId('customer-status')).toHaveText('Blocked');
  // No reload: the ended session takes the customer's page to sign in by itself.
  await expect(customer).toHaveURL(/\/en\/signin/, { timeout: 2_000 });
  expect(Date.now() - started).toBeLessThan(4_000);

  await admin.getByRole('button', { name: 'Unblock' }).click();
  await confirmWithPassword(admin, /^Unblock /, DEMO.admin.password);
  await expect(admin.getByTestId('customer-status')).toHaveText('Active');
  await signIn(customer, email, password);

  const moved = uniqueEmail('moved');
  const profile = admin.locator('#customer-profile');
  await profile.getByLabel('E-mail').fill(moved);
  await profile.getByRole('button', { name: 'Save' }).click();
  // A new address is a new way into the account: the admin's own password confirms it.
  await confirmWithPassword(admin, 'Change the e-mail address?', DEMO.admin.password);
  await expect(admin.getByText('The profile was saved.')).toBeVisible();
  await expect(admin.getByTestId('customer-status')).toHaveText('Not verified');
  expect(await linkFromMail(request, moved)).toContain('/email/verify?challenge=');

  // The trail shows what was done, newest first.
  const trail = admin.locator('#customer-trail');
  await expect(trail.getByRole('link', { name: 'Profile changed by staff' })).toBeVisible();
  await expect(trail.getByRole('link', { name: 'Blocked by staff', exact: true })).toBeVisible();
  await customerContext.close();
  await adminContext.close();
});

test('an admin creates a user who can then sign in', async ({ page, browser }) => {
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await page.goto('/en/admin/customers');
  await page.getByRole('button', { name: 'Create user' }).click();
  const dialog = page.getByRole('dialog', { name: 'New user' });
  const email = uniqueEmail('created');
  await dialog.getByLabel('Name').fill('Created Person');
  await dialog.getByLabel('E-mail').fill('not-an-address');
  await dialog.getByLabel('Password', { exact: true }).fill(JOURNEY_PASSWORD);
  await dialog.getByLabel('Confirm password').fill(JOURNEY_PASSWORD);
  await dialog.getByRole('button', { name: 'Create user' }).click();
  await expect(dialog.getByLabel('E-mail')).toHaveAccessibleDescription(
    'Enter a valid e-mail address.',
  );
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByRole('button', { name: 'Create user' }).click();
  await expect(page).toHaveURL(/\/en\/admin\/customers\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Created Person');

  const fresh = await browser.newContext();
  const newcomer = await fresh.newPage();
  await signIn(newcomer, email, JOURNEY_PASSWORD);
  // Unverified, as every account is until its owner follows the link.
  await expect(newcomer).toHaveURL(/\/en\/email\/verify/);
  await fresh.close();
});

test('an admin filters the audit log and opens an entry', async ({ page }) => {
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await page.goto('/en/admin/logs');
  await expect(page).toHaveURL(/\/en\/admin\/logs\/overview/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Audit log');
  await page.getByLabel('Action').selectOption({ label: 'Signed in' });
  await expect(page).toHaveURL(/action=auth\.signed_in/);
  // Journeys beside this one sign in too: the admin's own sign-in is among the newest rows.
  const first = page.getByRole('row').filter({ hasText: DEMO.admin.email }).first();
  await expect(first).toBeVisible();
  await expect(page.getByRole('row').nth(1)).toContainText('Signed in');
  await first.getByRole('link', { name: 'Signed in' }).click();
  await expect(page).toHaveURL(/\/en\/admin\/logs\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Signed in');
  await expect(page.getByTestId('log-data')).toBeVisible();
});

test('an author gets page-not-found on the customers and the logs', async ({ page }) => {
  await signIn(page, DEMO.author.email, DEMO.author.password);
  await page.goto('/en/admin/customers');
  await expect(page).toHaveURL('/en/page-not-found');
  await page.goto('/en/admin/logs/overview');
  await expect(page).toHaveURL('/en/page-not-found');
});

test('a customer loads no admin code or texts', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await signIn(page, DEMO.customer.email, DEMO.customer.password);
  for (const path of ['/en/dashboard', '/en/account/profile', '/en/account/security']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  await page.goto('/en/admin/customers');
  await expect(page).toHaveURL('/en/page-not-found');
  // The build names every chunk with staff-only code or texts `admin-…` (vite.config.ts).
  expect(scripts.filter((url) => url.includes('/assets/admin-'))).toEqual([]);
});

for (const [label, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['mobile', { width: 390, height: 844 }],
] as const) {
  test(`screenshots of the customers, a customer and the audit log at ${label} width`, async ({
    page,
    browser,
  }) => {
    await page.setViewportSize(viewport);
    // The customer signed in somewhere, so their page lists a device (a row action) too.
    const elsewhere = await browser.newContext();
    await signIn(await elsewhere.newPage(), DEMO.customer.email, DEMO.customer.password);
    await signIn(page, DEMO.admin.email, DEMO.admin.password);
    const shots: [string, string][] = [
      ['customers', '/en/admin/customers'],
      ['customer', '/en/admin/customers/3'],
      ['logs', '/en/admin/logs/overview'],
    ];
    for (const [name, path] of shots) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('status')).toHaveCount(0);
      // Nothing wider than the screen: a phone never scrolls sideways.
      await expect
        .poll(() => page.evaluate('document.documentElement.scrollWidth - window.innerWidth'), {
          message: path,
        })
        .toBeLessThanOrEqual(0);
      const file = test.info().outputPath(`${name}-${label}.png`);
      await page.screenshot({ path: file, fullPage: true });
      await test.info().attach(`${name}-${label}`, { path: file });
    }
    await elsewhere.close();
  });
}
