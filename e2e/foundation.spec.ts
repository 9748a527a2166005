import { expect, test } from '@playwright/test';

test('the root redirects to the default locale and the home page renders', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto('/');
  await expect(page).toHaveURL(/\/en$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Private, fast and simple VPN');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(errors, 'no console errors (CSP violations show up here)').toEqual([]);
});

test('a screen path in another locale renders in that language', async ({ page }) => {
  await page.goto('/fr');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Un VPN privé, rapide et simple',
  );
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
});

test('a deep link is answered by the app (history fallback)', async ({ page }) => {
  const response = await page.goto('/nl/some/deep/link');
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId('page-not-found')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pagina niet gevonden');
});

test('an unknown API path answers JSON, never the app', async ({ request }) => {
  const response = await request.get('/api/public/v1/does-not-exist');
  expect(response.status()).toBe(404);
  expect(await response.json()).toEqual({ code: 'not_found', errors_info: ['errors.not_found'] });
});

test('hashed assets are cached for a year and sent compressed', async ({ page, request }) => {
  await page.goto('/en');
  const script = await page.locator('script[type="module"]').getAttribute('src');
  expect(script).toMatch(/^\/assets\/.+-[\w-]{8}\.js$/);
  const response = await request.get(script ?? '', { headers: { 'accept-encoding': 'br, gzip' } });
  expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(response.headers()['content-encoding']).toBe('br');
});

test('the API documentation is browsable', async ({ page }) => {
  await page.goto('/api/docs');
  await expect(page.locator('.swagger-ui .title')).toContainText('VPN product API');
});
