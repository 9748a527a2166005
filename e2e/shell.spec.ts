import { gzipSync } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';

const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 375, height: 740 };

test('a path without a language gets the default one, keeping its query', async ({ page }) => {
  await page.goto('/signin?from=mail');
  await expect(page).toHaveURL('/en/signin?from=mail');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in');
});

test('an unsupported language is replaced by the default, keeping path and query', async ({
  page,
}) => {
  await page.goto('/de/signin?x=1');
  await expect(page).toHaveURL('/en/signin?x=1');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in');
  await page.goto('/pt-BR/order-v2');
  // The order page then notes the plan it shows in the query (?plan=…).
  await expect(page).toHaveURL(/\/en\/order-v2(\?|$)/);
});

test('an unknown path under a language goes to page-not-found', async ({ page }) => {
  await page.goto('/en/no/such/screen');
  await expect(page).toHaveURL('/en/page-not-found');
  await expect(page.getByTestId('page-not-found')).toBeVisible();
});

test('a signed-out visit to an account screen goes to sign in with continue and path', async ({
  page,
}) => {
  await page.goto('/es/account/security?tab=devices');
  await expect(page).toHaveURL(/\/es\/signin\?/);
  const url = new URL(page.url());
  expect(Object.fromEntries(url.searchParams)).toEqual({
    tab: 'devices',
    continue: 'account.security',
    path: '/es/account/security',
  });
  await expect(page.getByTestId('login-link')).toHaveCount(0);
});

test('an admin screen is not reachable signed out and loads no admin code', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto('/en');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The build names every chunk with staff-only code or texts `admin-…` (vite.config.ts).
  expect(scripts.filter((url) => url.includes('/assets/admin-'))).toEqual([]);
  await page.goto('/en/admin/customers');
  await expect(page).toHaveURL(/\/en\/signin\?continue=admin\.customers/);
});

test('the language switch keeps the path and the query', async ({ page }) => {
  await page.goto('/en/signin?continue=dashboard&path=%2Fen%2Fdashboard');
  await page.getByRole('combobox', { name: 'Language' }).click();
  await page.getByRole('option', { name: 'Nederlands' }).click();
  await expect(page).toHaveURL('/nl/signin?continue=dashboard&path=%2Fen%2Fdashboard');
  await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Inloggen');
  // Back to the English path: the words follow the path, not only the switch.
  await page.goBack();
  await expect(page).toHaveURL('/en/signin?continue=dashboard&path=%2Fen%2Fdashboard');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('the landing header offers the Get button, Log In and at most six links', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/en');
  const nav = page.getByRole('navigation', { name: 'Main' });
  expect(await nav.getByRole('link').count()).toBeLessThanOrEqual(6);
  await expect(page.getByTestId('get-button')).toHaveAttribute('href', '/en/order-v2');
  await expect(page.getByTestId('login-link')).toBeVisible();
  await expect(page.getByTestId('site-footer')).toContainText('© 2024');
  await expect(page.getByTestId('site-footer')).toContainText('All rights reserved');
});

test('the mobile burger opens the menu and resets when the breakpoint changes', async ({
  page,
}) => {
  await page.setViewportSize(MOBILE);
  // The app's landing header (the public pages' own, served as HTML, opens without script).
  await page.goto('/en/order-v2');
  const burger = page.getByTestId('burger');
  await expect(burger).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await burger.click();
  await expect(page.getByTestId('mobile-menu')).toBeVisible();
  await expect(burger).toHaveAttribute('aria-expanded', 'true');

  await page.setViewportSize(DESKTOP);
  await expect(page.getByTestId('burger')).toHaveCount(0);
  await expect(page.getByTestId('mobile-menu')).toHaveCount(0);
  await page.setViewportSize(MOBILE);
  await expect(page.getByTestId('burger')).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByTestId('mobile-menu')).toHaveCount(0);
});

// Budget (issue 23): the JavaScript a public page needs before it is interactive, gzip
// compressed, stays within 100 KB; the app's code comes only when a visitor follows a link
// into it.
test('the public home loads at most 100 KB of JavaScript (gzip)', async ({ page }) => {
  const bodies: Promise<Buffer>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') bodies.push(response.body());
  });
  await page.goto('/en', { waitUntil: 'networkidle' });
  const gzipped = (await Promise.all(bodies)).reduce(
    (total, body) => total + gzipSync(body, { level: 9 }).length,
    0,
  );
  test.info().annotations.push({ type: 'home-js-gzip-bytes', description: String(gzipped) });
  console.log(`public home JavaScript: ${(gzipped / 1024).toFixed(1)} KB gzip`);
  expect(gzipped).toBeLessThanOrEqual(100 * 1024);
});

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
  await test.info().attach(name, { path: test.info().outputPath(`${name}.png`) });
}

for (const [label, viewport] of [
  ['desktop', DESKTOP],
  ['mobile', MOBILE],
] as const) {
  test(`screenshots of home, sign-in and 404 at ${label} width`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/en');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await shoot(page, `home-${label}`);
    await page.goto('/en/signin');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await shoot(page, `signin-${label}`);
    await page.goto('/en/nowhere');
    await expect(page.getByTestId('page-not-found')).toBeVisible();
    await shoot(page, `404-${label}`);
  });
}
