import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../i18n/i18n.ts';
import { renderApp } from '../test/render-app.tsx';

afterEach(async () => {
  vi.restoreAllMocks();
  await changeLanguage('en');
});

const here = (router: Awaited<ReturnType<typeof renderApp>>['router']) =>
  `${router.state.location.pathname}${router.state.location.search}`;

// §2 "The language switch rewrites the leading locale segment of the current path."
describe('the language switch', () => {
  it('rewrites the locale segment and keeps the query', async () => {
    const { screen, router } = await renderApp('/en/signin?continue=dashboard', null);
    await screen.getByRole('combobox', { name: 'Language' }).click();
    await screen.getByRole('option', { name: 'Nederlands' }).click();
    await expect.element(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Inloggen');
    expect(here(router)).toBe('/nl/signin?continue=dashboard');
    expect(document.documentElement.lang).toBe('nl');
  });

  it("only logs a failure as 'Language change failed' and stays where it is", async () => {
    const failure = new Error('messages unavailable');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(i18next, 'changeLanguage').mockRejectedValueOnce(failure);
    const { screen, router } = await renderApp('/en/signin?continue=dashboard', null);
    await screen.getByRole('combobox', { name: 'Language' }).click();
    await screen.getByRole('option', { name: 'Français' }).click();
    await expect
      .poll(() => logged.mock.calls.find(([message]) => message === 'Language change failed'))
      .toEqual(['Language change failed', failure]);
    expect(here(router)).toBe('/en/signin?continue=dashboard');
    await expect.element(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Log in');
    expect(i18next.language).toBe('en');
    // Nothing else was shown or raised: the page is as it was.
    expect(screen.getByRole('alert').elements()).toHaveLength(0);
  });
});
