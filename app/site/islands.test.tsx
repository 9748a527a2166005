import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { jsonResponse, stubFetch } from '../test/stub-fetch.ts';
import { AccountLink } from './account-link.tsx';
import { HelpSearch } from './pages/help-search.tsx';
import { WasThisHelpful } from './pages/was-this-helpful.tsx';

// The public pages' islands (issue 23): what a visitor does on a page that is otherwise plain
// HTML.

const SEARCH = '/api/public/v1/help-center/search';
const VOTE = '/api/public/v1/help-center/articles/vote';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the help search', () => {
  it('answers as the visitor types: ranked results with the matched words marked', async () => {
    const seen = stubFetch({
      [SEARCH]: () =>
        jsonResponse(200, {
          items: [
            {
              translation_id: 7,
              title: 'How to Add a Device',
              slug: 'add-a-device',
              path: '/en/help-center/article/add-a-device',
              category: { name: 'Setup', path: '/en/help-center/category/setup' },
              snippet: [
                { text: 'Open the ', hit: false },
                { text: 'device', hit: true },
                { text: ' page.', hit: false },
              ],
            },
          ],
        }),
    });
    const screen = await render(<HelpSearch lang="en" />);
    await screen.getByLabelText('Search the help center').fill('devi');
    const result = screen.getByRole('link', { name: 'How to Add a Device' });
    await expect.element(result).toHaveAttribute('href', '/en/help-center/article/add-a-device');
    await expect.element(screen.getByText('device', { exact: true })).toBeVisible();
    expect(screen.container.querySelector('mark')?.textContent).toBe('device');
    // One request for the pause in typing, with the language and the words as typed.
    const url = new URL(seen.at(-1)?.url ?? '');
    expect(Object.fromEntries(url.searchParams)).toEqual({ lang: 'en', q: 'devi' });
  });

  it('says when nothing matches, and when the search is not available', async () => {
    let up = true;
    stubFetch({
      [SEARCH]: () => (up ? jsonResponse(200, { items: [] }) : jsonResponse(503, {})),
    });
    const screen = await render(<HelpSearch lang="en" />);
    const box = screen.getByLabelText('Search the help center');
    await box.fill('zorblax');
    await expect.element(screen.getByText('No articles match "zorblax".')).toBeVisible();
    up = false;
    await box.fill('zorblaxes');
    await expect
      .element(screen.getByText('The search is not available right now. Please try again.'))
      .toBeVisible();
  });
});

describe('was this helpful', () => {
  it('sends one vote and thanks the visitor; a failure says so and lets them try again', async () => {
    let fail = true;
    const seen = stubFetch({
      [VOTE]: () => (fail ? jsonResponse(503, {}) : jsonResponse(200, { success: true })),
    });
    const screen = await render(<WasThisHelpful translationId={42} />);
    await screen.getByRole('button', { name: 'Yes' }).click();
    await expect
      .element(screen.getByText('Your answer could not be sent. Please try again.'))
      .toBeVisible();
    fail = false;
    await screen.getByRole('button', { name: 'No' }).click();
    await expect.element(screen.getByText('Thank you for your feedback.')).toBeVisible();
    await expect.element(screen.getByRole('button', { name: 'Yes' })).not.toBeInTheDocument();
    const last = seen.at(-1);
    expect(last?.headers.get('x-requested-with')).toBe('fetch');
    expect(await last?.json()).toEqual({ translation_id: 42, helpful: false });
  });
});

describe('the account link', () => {
  it('offers Log In to a visitor and the way back in to someone signed in here before', async () => {
    const visitor = await render(<AccountLink lang="fr" />);
    await expect
      .element(visitor.getByRole('link', { name: 'Log In' }))
      .toHaveAttribute('href', '/fr/signin');
    visitor.unmount();
    localStorage.setItem('session.user', JSON.stringify({ id: 3, role: 'ADMIN' }));
    const staff = await render(<AccountLink lang="fr" />);
    await expect
      .element(staff.getByRole('link', { name: 'My account' }))
      .toHaveAttribute('href', '/fr/admin/dashboard');
  });
});
