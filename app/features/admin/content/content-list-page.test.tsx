import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  articleEndpoints,
  blogCategoryEndpoints,
  contentEndpoints,
  helpCategoryEndpoints,
  postEndpoints,
} from '#shared/contracts/admin/content.ts';
import { helpInsightsEndpoints } from '#shared/contracts/admin/help-insights.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { testCategory as category, testListItem } from './content-test-data.ts';

// §2 the blog's and the help center's overviews filter by category as they do by state and
// language: the choices are the tree's categories, and the filter is kept in the address.
const author = testUser({ id: 7, role: 'AUTHOR', name: 'Otto Author' });

afterEach(() => vi.unstubAllGlobals());

const item = (id: number, name: string, category: { category_id: number; name: string } | null) =>
  testListItem(id, name, { category, author: { user_id: 7, name: 'Otto Author' } });

const list = <T,>(items: T[]) => ({
  items,
  controls: { page: 1, per_page: 20, total: items.length, last_page: 1 },
});

/** The query strings of the calls made to `url`, in order. */
const queries = (requests: Request[], url: string) =>
  requests
    .filter((request) => new URL(request.url).pathname === url)
    .map((request) => Object.fromEntries(new URL(request.url).searchParams));

const GUIDES = category(3, { en: 'Guides', es: 'Guías' });
const NEWS = category(4, { en: 'News' });
const WIREGUARD = item(21, 'Why WireGuard is fast', { category_id: 3, name: 'Guides' });
const RELEASE = item(22, 'Version 2 is out', { category_id: 4, name: 'News' });

describe('the blog posts overview', () => {
  it('filters by category, keeps it in the address and reads it back from there', async () => {
    const seen = stubFetch({
      [blogCategoryEndpoints.list.url]: () => jsonResponse(200, list([GUIDES, NEWS])),
      [contentEndpoints.settings.url]: () => jsonResponse(200, { authors_can_publish: false }),
      [postEndpoints.list.url]: (request) => {
        const chosen = new URL(request.url).searchParams.get('category_id');
        const items = [WIREGUARD, RELEASE].filter(
          (post) => chosen === null || String(post.category?.category_id) === chosen,
        );
        return jsonResponse(200, list(items));
      },
    });
    const { screen, router } = await renderApp('/en/admin/blog/posts/overview', author);
    const table = screen.getByRole('table', { name: 'Blog posts' });
    await expect.element(table.getByRole('row', { name: /Version 2 is out/ })).toBeVisible();

    const filter = screen.getByLabelText('Category');
    await expect.element(filter.getByRole('option', { name: 'Guides' })).toBeInTheDocument();
    await expect.element(filter.getByRole('option', { name: 'News' })).toBeInTheDocument();
    await filter.selectOptions('3');
    await expect
      .element(table.getByRole('row', { name: /Version 2 is out/ }))
      .not.toBeInTheDocument();
    await expect.element(table.getByRole('row', { name: /Why WireGuard is fast/ })).toBeVisible();
    expect(new URLSearchParams(router.state.location.search).get('category_id')).toBe('3');
    expect(queries(seen, postEndpoints.list.url).at(-1)).toMatchObject({ category_id: '3' });

    // A shared or reloaded address brings the filters back, with the others kept.
    await screen.unmount();
    vi.unstubAllGlobals();
    const again = stubFetch({
      [blogCategoryEndpoints.list.url]: () => jsonResponse(200, list([GUIDES, NEWS])),
      [contentEndpoints.settings.url]: () => jsonResponse(200, { authors_can_publish: false }),
      [postEndpoints.list.url]: () => jsonResponse(200, list([RELEASE])),
    });
    const second = await renderApp(
      '/en/admin/blog/posts/overview?state=published&category_id=4',
      author,
    );
    await expect
      .element(second.screen.getByRole('row', { name: /Version 2 is out/ }))
      .toBeVisible();
    await expect.element(second.screen.getByLabelText('Category')).toHaveValue('4');
    await expect.element(second.screen.getByLabelText('State')).toHaveValue('published');
    expect(queries(again, postEndpoints.list.url)[0]).toMatchObject({
      category_id: '4',
      state: 'published',
    });

    await second.screen.getByLabelText('Category').selectOptions('');
    await expect
      .poll(() => new URLSearchParams(second.router.state.location.search).get('category_id'))
      .toBeNull();
    await expect
      .poll(() => queries(again, postEndpoints.list.url).at(-1))
      .toEqual({ page: '1', per_page: '20', state: 'published' });
  });
});

describe('the author filter', () => {
  it('offers the people who wrote items of the kind, by the names they have', async () => {
    const seen = stubFetch({
      [blogCategoryEndpoints.list.url]: () => jsonResponse(200, list([GUIDES])),
      [contentEndpoints.settings.url]: () => jsonResponse(200, { authors_can_publish: false }),
      [contentEndpoints.authors.url]: () =>
        jsonResponse(200, {
          items: [
            { user_id: 7, name: 'Otto Author' },
            { user_id: 8, name: 'Ms. Ada: editor' },
          ],
        }),
      [postEndpoints.list.url]: () => jsonResponse(200, list([WIREGUARD])),
    });
    const { screen, router } = await renderApp('/en/admin/blog/posts/overview', author);
    const filter = screen.getByLabelText('Author');
    // A name holding the translator's separators is shown as it is.
    await expect
      .element(filter.getByRole('option', { name: 'Ms. Ada: editor' }))
      .toBeInTheDocument();
    expect(queries(seen, contentEndpoints.authors.url)[0]).toEqual({ kind: 'post' });
    await filter.selectOptions('8');
    await expect
      .poll(() => queries(seen, postEndpoints.list.url).at(-1))
      .toMatchObject({ author_id: '8' });
    expect(new URLSearchParams(router.state.location.search).get('author_id')).toBe('8');
  });
});

describe('the help-center articles overview', () => {
  it('offers the categories with their sub-categories under them', async () => {
    const help = (id: number, name: string, parent: number | null = null) =>
      category(id, { en: name }, { kind: 'help', parent_category_id: parent });
    const seen = stubFetch({
      // The server's order need not be the tree's: the choices follow the tree.
      [helpCategoryEndpoints.list.url]: () =>
        jsonResponse(
          200,
          list([help(1, 'Getting started'), help(2, 'Billing'), help(11, 'Setup', 1)]),
        ),
      [articleEndpoints.list.url]: () => jsonResponse(200, list([])),
      [helpInsightsEndpoints.view.url]: () => jsonResponse(200, { misses: [], votes: [] }),
    });
    const { screen, router } = await renderApp('/en/admin/help-center/articles/published', author);
    const filter = screen.getByLabelText('Category');
    await expect.element(filter.getByRole('option', { name: 'Billing' })).toBeInTheDocument();
    expect(
      filter
        .getByRole('option')
        .elements()
        .map((option) => option.textContent),
    ).toEqual(['Any', 'Getting started', '— Setup', 'Billing']);
    await filter.selectOptions('11');
    await expect
      .poll(() => queries(seen, articleEndpoints.list.url).at(-1))
      .toMatchObject({ category_id: '11' });
    expect(new URLSearchParams(router.state.location.search).get('category_id')).toBe('11');
  });
});
