import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import {
  articleEndpoints,
  blogCategoryEndpoints,
  CONTENT_MESSAGES,
  type ContentListItem,
  contentEndpoints,
  helpCategoryEndpoints,
} from '#shared/contracts/admin/content.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { errorResponse, jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { testCategory as category, testListItem } from '../content/content-test-data.ts';

// §2 the category screens over the real route table, with the server stood in for at fetch:
// the list with its languages, a new category and an edit refused under their fields with
// nothing typed lost, and the order of the help center's categories changed by keyboard.
const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });

afterEach(() => vi.unstubAllGlobals());

const list = <T,>(items: T[]) => ({
  items,
  controls: { page: 1, per_page: 50, total: items.length, last_page: 1 },
});

const bodies = (requests: Request[], url: string) =>
  Promise.all(
    requests
      .filter((request) => request.url.endsWith(url))
      .map((request) => request.clone().json()),
  );

const GUIDES = category(3, { en: 'Guides', es: 'Guías' }, { items_count: 2 });
const NEWS = category(4, { en: 'News' });

const help = (id: number, name: string, parent: number | null = null, position = id) =>
  category(id, { en: name }, { kind: 'help', parent_category_id: parent, position });
const HELP = [
  help(1, 'Getting started'),
  help(11, 'Setup', 1, 1),
  help(12, 'Account basics', 1, 2),
  help(2, 'Billing'),
  help(21, 'Payments', 2, 1),
  help(3, 'Troubleshooting'),
];

describe('blog categories', () => {
  it('lists each category with its languages, and says so when there are none', async () => {
    stubFetch({ [blogCategoryEndpoints.list.url]: () => jsonResponse(200, list([GUIDES, NEWS])) });
    const { screen } = await renderApp('/en/admin/blog/categories/overview', admin);
    await expect
      .element(screen.getByRole('heading', { level: 1, name: 'Blog categories' }))
      .toBeVisible();
    const row = screen.getByRole('row', { name: /Guides/ });
    await expect.element(row).toHaveTextContent('English: written');
    await expect.element(row).toHaveTextContent('Spanish: written');
    await expect.element(row).toHaveTextContent('French: not written');
    await expect.element(screen.getByRole('button', { name: 'Delete News' })).toBeVisible();

    vi.unstubAllGlobals();
    stubFetch({ [blogCategoryEndpoints.list.url]: () => jsonResponse(200, list([])) });
    const second = await renderApp('/en/admin/blog/categories/overview', admin);
    await expect.element(second.screen.getByText('No blog categories yet')).toBeVisible();
  });

  it('creates a category, and shows a refusal under its field with what was typed kept', async () => {
    let refuse = true;
    const seen = stubFetch({
      [blogCategoryEndpoints.list.url]: () => jsonResponse(200, list([GUIDES])),
      [blogCategoryEndpoints.create.url]: async (request) => {
        if (refuse) {
          refuse = false;
          return jsonResponse(422, {
            code: 'validation_failed',
            errors_validation: { url: [CONTENT_MESSAGES.slugTaken] },
            errors_info: [],
          });
        }
        const body = await request.clone().json();
        return jsonResponse(201, { category: category(9, { en: body.name }) });
      },
    });
    const { screen } = await renderApp('/en/admin/blog/categories/overview', admin);
    await screen.getByRole('button', { name: 'New category' }).click();
    const dialog = screen.getByRole('dialog', { name: 'New blog category' });
    await expect.element(dialog).toBeVisible();
    await dialog.getByLabelText('Name').fill('Privacy tips');
    await expect.element(dialog.getByLabelText('Address (slug)')).toHaveValue('privacy-tips');
    await dialog.getByLabelText('Description').fill('Short reads.');
    await dialog.getByRole('button', { name: 'Save English' }).click();

    const slug = dialog.getByLabelText('Address (slug)');
    await expect.element(slug).toHaveAttribute('aria-invalid', 'true');
    await expect
      .element(slug)
      .toHaveAccessibleDescription('This address is taken in this language.');
    await expect.element(dialog.getByLabelText('Name')).toHaveValue('Privacy tips');
    await expect.element(dialog.getByLabelText('Description')).toHaveValue('Short reads.');

    await slug.fill('privacy-tips-2');
    await dialog.getByRole('button', { name: 'Save English' }).click();
    await expect.element(screen.getByRole('dialog', { name: 'Edit “Privacy tips”' })).toBeVisible();
    expect(await bodies(seen, blogCategoryEndpoints.create.url)).toEqual([
      {
        lang: 'en',
        name: 'Privacy tips',
        url: 'privacy-tips',
        description: 'Short reads.',
        parent_category_id: null,
      },
      {
        lang: 'en',
        name: 'Privacy tips',
        url: 'privacy-tips-2',
        description: 'Short reads.',
        parent_category_id: null,
      },
    ]);
  });

  it('adds a language to a category, keeping its SEO fields and leaving its parent be', async () => {
    const seen = stubFetch({
      [blogCategoryEndpoints.list.url]: () => jsonResponse(200, list([GUIDES])),
      [blogCategoryEndpoints.update.url]: () =>
        jsonResponse(200, {
          success: true,
          category: category(3, { en: 'Guides', es: 'Guías', fr: 'Guides pratiques' }),
        }),
    });
    const { screen } = await renderApp('/en/admin/blog/categories/overview', admin);
    await screen.getByRole('button', { name: 'Edit Guides' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Edit “Guides”' });
    await expect.element(dialog.getByLabelText('Name')).toHaveValue('Guides');
    await dialog.getByRole('tab', { name: /^French/ }).click();
    await expect.element(dialog.getByLabelText('Name')).toHaveValue('');
    await dialog.getByLabelText('Name').fill('Guides pratiques');
    await dialog.getByRole('button', { name: 'Save French' }).click();
    await expect.element(dialog.getByRole('tab', { name: /^French/ })).toHaveTextContent('written');
    await expect.element(dialog.getByRole('button', { name: 'Delete French' })).toBeVisible();
    expect(await bodies(seen, blogCategoryEndpoints.update.url)).toEqual([
      {
        category_id: 3,
        lang: 'fr',
        name: 'Guides pratiques',
        url: 'guides-pratiques',
        description: '',
      },
    ]);

    // English: the SEO screens' fields go back as they were.
    await dialog.getByRole('tab', { name: /^English/ }).click();
    await dialog.getByLabelText('Description').fill('How-tos.');
    await dialog.getByRole('button', { name: 'Save English' }).click();
    await expect.poll(() => bodies(seen, blogCategoryEndpoints.update.url)).toHaveLength(2);
    expect((await bodies(seen, blogCategoryEndpoints.update.url))[1]).toEqual({
      category_id: 3,
      lang: 'en',
      name: 'Guides',
      url: 'guides',
      description: 'How-tos.',
      seo_title: 'Guides | Blog',
      seo_description: '',
      focus_keyphrase: '',
      og_image_id: null,
      canonical_url: '',
      version: 1,
    });
  });

  it('deletes a category after asking, and shows the refusal of one that is not empty', async () => {
    stubFetch({
      [blogCategoryEndpoints.list.url]: () => jsonResponse(200, list([GUIDES])),
      [blogCategoryEndpoints.delete.url]: () =>
        jsonResponse(409, {
          code: 'conflict',
          errors_validation: {},
          errors_info: [CONTENT_MESSAGES.categoryNotEmpty],
        }),
    });
    const { screen } = await renderApp('/en/admin/blog/categories/overview', admin);
    await screen.getByRole('button', { name: 'Delete Guides' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Delete “Guides”?' });
    await dialog.getByRole('button', { name: 'Delete category' }).click();
    await expect
      .element(dialog.getByText('Move or delete what is filed in this category first.'))
      .toBeVisible();
  });
});

describe('an author', () => {
  it('who may not publish is told categories are live, and offered no new one', async () => {
    const author = testUser({ id: 7, role: 'AUTHOR', name: 'Otto Author' });
    let allowed = false;
    stubFetch({
      [blogCategoryEndpoints.list.url]: () => jsonResponse(200, list([GUIDES])),
      [contentEndpoints.settings.url]: () => jsonResponse(200, { authors_can_publish: allowed }),
    });
    const { screen } = await renderApp('/en/admin/blog/categories/overview', author);
    await expect
      .element(screen.getByRole('note'))
      .toHaveTextContent('only someone who may publish can change them');
    await expect.element(screen.getByRole('row', { name: /Guides/ })).toBeVisible();
    await expect
      .element(screen.getByRole('button', { name: 'New category' }))
      .not.toBeInTheDocument();

    await screen.unmount();
    allowed = true;
    // Another author, so the app's cache (emptied when the person changes) asks again.
    const trusted = testUser({ id: 8, role: 'AUTHOR', name: 'Tess Trusted' });
    const second = await renderApp('/en/admin/blog/categories/overview', trusted);
    await expect.element(second.screen.getByRole('button', { name: 'New category' })).toBeVisible();
    await expect.element(second.screen.getByRole('note')).not.toBeInTheDocument();
  });
});

describe('help-center categories', () => {
  it('shows the server’s refusal of a category as its own parent under the parent field', async () => {
    const seen = stubFetch({
      [helpCategoryEndpoints.list.url]: (request) => {
        const parent = new URL(request.url).searchParams.get('parent_category_id');
        const items =
          parent === '0' ? HELP.filter((item) => item.parent_category_id === null) : HELP;
        return jsonResponse(200, list(items));
      },
      [helpCategoryEndpoints.update.url]: () =>
        jsonResponse(422, {
          code: 'validation_failed',
          errors_validation: { parent_category_id: [CONTENT_MESSAGES.ownParent] },
          errors_info: [],
        }),
    });
    const { screen } = await renderApp('/en/admin/help-center/categories/overview', admin);
    await expect.element(screen.getByRole('row', { name: /Billing/ })).toBeVisible();
    await expect.element(screen.getByRole('row', { name: /Setup/ })).not.toBeInTheDocument();
    await screen.getByRole('button', { name: 'Edit Billing' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Edit “Billing”' });
    const parent = dialog.getByLabelText('Parent category');
    await parent.selectOptions('2');
    await dialog.getByRole('button', { name: 'Save English' }).click();
    await expect
      .element(parent)
      .toHaveAccessibleDescription('A category cannot be its own parent.');
    await expect.element(parent).toHaveValue('2');
    expect(await bodies(seen, helpCategoryEndpoints.update.url)).toMatchObject([
      { category_id: 2, lang: 'en', name: 'Billing', parent_category_id: 2 },
    ]);
  });

  it('lists the sub-categories with their parents, and a new one needs a parent', async () => {
    const seen = stubFetch({
      [helpCategoryEndpoints.list.url]: () => jsonResponse(200, list(HELP)),
      [helpCategoryEndpoints.create.url]: () =>
        jsonResponse(201, { category: help(13, 'Devices', 1, 3) }),
    });
    const { screen } = await renderApp('/en/admin/help-center/categories/sub-categories', admin);
    const table = screen.getByRole('table', { name: /sub-categories with their parents/ });
    await expect.element(table.getByRole('row', { name: /Payments/ })).toHaveTextContent('Billing');
    await expect
      .element(table.getByRole('row', { name: /Troubleshooting/ }))
      .not.toBeInTheDocument();
    await screen.getByLabelText('Parent category').selectOptions('1');
    await expect.element(table.getByRole('row', { name: /Payments/ })).not.toBeInTheDocument();

    await screen.getByLabelText('Parent category').selectOptions('');
    await screen.getByRole('button', { name: 'New sub-category' }).click();
    const dialog = screen.getByRole('dialog', { name: 'New help-center category' });
    await dialog.getByLabelText('Name').fill('Devices');
    await dialog.getByRole('button', { name: 'Save English' }).click();
    await expect
      .element(dialog.getByLabelText('Parent category'))
      .toHaveAccessibleDescription('This field is required.');
    await dialog.getByLabelText('Parent category').selectOptions('1');
    await dialog.getByRole('button', { name: 'Save English' }).click();
    await expect
      .poll(() => bodies(seen, helpCategoryEndpoints.create.url))
      .toEqual([
        { lang: 'en', name: 'Devices', url: 'devices', description: '', parent_category_id: 1 },
      ]);
  });

  it('reorders the categories by keyboard, announces each move, and saves each level changed', async () => {
    let items = HELP;
    const seen = stubFetch({
      [helpCategoryEndpoints.list.url]: () => jsonResponse(200, list(items)),
      [helpCategoryEndpoints.sort.url]: async (request) => {
        const body = await request.clone().json();
        items = items.map((item) =>
          body.category_ids.includes(item.category_id)
            ? { ...item, position: body.category_ids.indexOf(item.category_id) + 1 }
            : item,
        );
        items = [...items].sort((a, b) => a.position - b.position);
        return jsonResponse(200, { success: true });
      },
    });
    const { screen } = await renderApp('/en/admin/help-center/categories/sorting', admin);
    const top = screen.getByRole('list', { name: 'Order of the top-level categories' });
    const names = () =>
      top
        .getByTestId('category-name')
        .elements()
        .map((element) => element.textContent);
    await expect.element(top).toBeVisible();
    expect(names()).toEqual(['Getting started', 'Billing', 'Troubleshooting']);
    await expect.element(screen.getByTestId('sortable-1')).toHaveTextContent('2 sub-categories');

    const handle = screen.getByRole('button', { name: 'Move Troubleshooting', exact: true });
    handle.element().focus();
    await userEvent.keyboard(' ');
    const announcer = screen.getByTestId('categories-announcer');
    await expect
      .element(announcer)
      .toHaveTextContent('Troubleshooting picked up, position 3 of 3.');
    await userEvent.keyboard('{ArrowUp}');
    await expect.element(announcer).toHaveTextContent('Troubleshooting moved to position 2 of 3.');
    await expect.element(handle).toHaveFocus();
    await userEvent.keyboard('{Home}');
    await userEvent.keyboard(' ');
    await expect
      .element(announcer)
      .toHaveTextContent('Troubleshooting dropped at position 1 of 3.');
    expect(names()).toEqual(['Troubleshooting', 'Getting started', 'Billing']);

    // A sub-category moves within its parent only.
    const setup = screen.getByRole('button', { name: 'Move Setup down' });
    await setup.click();
    await expect.element(screen.getByText('Unsaved changes')).toBeVisible();
    await screen.getByRole('button', { name: 'Save order' }).click();
    await expect.element(screen.getByText('Order saved')).toBeVisible();
    expect(await bodies(seen, helpCategoryEndpoints.sort.url)).toEqual([
      { parent_category_id: null, category_ids: [3, 1, 2] },
      { parent_category_id: 1, category_ids: [12, 11] },
    ]);
    await expect.element(screen.getByRole('button', { name: 'Save order' })).toBeDisabled();
    expect(names()).toEqual(['Troubleshooting', 'Getting started', 'Billing']);
  });

  it('reorders the articles of a chosen category by keyboard and drag, and saves them', async () => {
    const article = (id: number, name: string, category_id: number, position: number) =>
      testListItem(id, name, { kind: 'article', category: { category_id, name: '' }, position });
    // The server's articles, each read by category in position order, as the screen asks.
    let articles = [
      article(51, 'Install the app', 11, 1),
      article(52, 'Sign in', 11, 2),
      article(53, 'Pick a server', 11, 3),
      article(61, 'Pay by card', 21, 1),
      article(62, 'Refunds', 21, 2),
    ];
    const withArticles = HELP.map((item) =>
      item.category_id === 11 || item.category_id === 21 ? { ...item, items_count: 2 } : item,
    );
    const seen = stubFetch({
      [helpCategoryEndpoints.list.url]: () => jsonResponse(200, list(withArticles)),
      [articleEndpoints.list.url]: (request) => {
        const query = new URL(request.url).searchParams;
        const items = articles
          .filter((item) => String(item.category?.category_id) === query.get('category_id'))
          .sort((a, b) => a.position - b.position);
        return jsonResponse(200, list(items));
      },
      [articleEndpoints.sort.url]: async (request) => {
        const body = await request.clone().json();
        articles = articles.map((item) =>
          body.ids.includes(item.id) ? { ...item, position: body.ids.indexOf(item.id) + 1 } : item,
        );
        return jsonResponse(200, { success: true });
      },
    });
    const { screen } = await renderApp('/en/admin/help-center/categories/sorting', admin);
    const section = screen.getByRole('region', { name: 'Order of the articles in a category' });
    const chooser = section.getByLabelText('Category');
    // At first the first category with articles of its own.
    await expect.element(chooser).toHaveValue('11');
    const setup = section.getByRole('list', { name: 'Order of the articles in Setup' });
    const names = () =>
      setup
        .getByTestId('article-name')
        .elements()
        .map((element) => element.textContent);
    await expect.element(setup.getByText('Pick a server')).toBeVisible();
    expect(names()).toEqual(['Install the app', 'Sign in', 'Pick a server']);
    const query = new URL(
      seen.find((request) => new URL(request.url).pathname === articleEndpoints.list.url)?.url ??
        '',
    ).searchParams;
    expect(Object.fromEntries(query)).toMatchObject({
      category_id: '11',
      sort: 'position',
      direction: 'asc',
    });

    // By keyboard, announced in the page's words for an article.
    const handle = section.getByRole('button', { name: 'Move Pick a server', exact: true });
    handle.element().focus();
    await userEvent.keyboard(' ');
    const announcer = screen.getByTestId('categories-announcer');
    await expect.element(announcer).toHaveTextContent('Pick a server picked up, position 3 of 3.');
    await userEvent.keyboard('{Home}');
    await expect.element(announcer).toHaveTextContent('Pick a server moved to position 1 of 3.');
    await userEvent.keyboard(' ');
    await expect.element(announcer).toHaveTextContent('Pick a server dropped at position 1 of 3.');
    expect(names()).toEqual(['Pick a server', 'Install the app', 'Sign in']);
    await expect.element(screen.getByText('Unsaved changes')).toBeVisible();

    // Another category, dragged by its handle; the first arrangement waits to be saved too.
    await chooser.selectOptions('21');
    const payments = section.getByRole('list', { name: 'Order of the articles in Payments' });
    await expect.element(payments.getByText('Refunds')).toBeVisible();
    const grip = payments.getByRole('button', { name: 'Move Refunds', exact: true });
    const target = payments.getByTestId('sortable-61').element().getBoundingClientRect();
    const start = grip.element().getBoundingClientRect();
    const at = (y: number) => ({
      bubbles: true,
      isPrimary: true,
      button: 0,
      clientX: start.left + 5,
      clientY: y,
    });
    const paymentNames = () =>
      payments
        .getByTestId('article-name')
        .elements()
        .map((element) => element.textContent);
    grip.element().dispatchEvent(new PointerEvent('pointerdown', at(start.top + 5)));
    window.dispatchEvent(new PointerEvent('pointermove', at(target.top + 2)));
    await expect.poll(paymentNames).toEqual(['Refunds', 'Pay by card']);
    window.dispatchEvent(new PointerEvent('pointerup', at(target.top + 2)));
    await expect.element(announcer).toHaveTextContent('Refunds dropped at position 1 of 2.');

    await screen.getByRole('button', { name: 'Save order' }).click();
    await expect
      .poll(() => bodies(seen, articleEndpoints.sort.url))
      .toEqual([
        { category_id: 11, ids: [53, 51, 52] },
        { category_id: 21, ids: [62, 61] },
      ]);
    await expect.element(screen.getByText('Unsaved changes')).not.toBeInTheDocument();
    await expect.element(screen.getByRole('button', { name: 'Save order' })).toBeDisabled();
    expect(await bodies(seen, helpCategoryEndpoints.sort.url)).toEqual([]);
    // The saved order, read again, is the one arranged.
    expect(paymentNames()).toEqual(['Refunds', 'Pay by card']);

    // A reload shows the order the server now holds.
    await screen.unmount();
    vi.unstubAllGlobals();
    stubFetch({
      [helpCategoryEndpoints.list.url]: () => jsonResponse(200, list(withArticles)),
      [articleEndpoints.list.url]: (request) => {
        const id = new URL(request.url).searchParams.get('category_id');
        const items = articles
          .filter((item) => String(item.category?.category_id) === id)
          .sort((a, b) => a.position - b.position);
        return jsonResponse(200, list(items));
      },
    });
    const reloaded = await renderApp('/en/admin/help-center/categories/sorting', admin);
    const again = reloaded.screen.getByRole('list', { name: 'Order of the articles in Setup' });
    await expect.element(again.getByText('Pick a server')).toBeVisible();
    expect(
      again
        .getByTestId('article-name')
        .elements()
        .map((element) => element.textContent),
    ).toEqual(['Pick a server', 'Install the app', 'Sign in']);
  });

  it('says so when a category’s articles changed meanwhile, and shows them as they are', async () => {
    const one = {
      id: 51,
      kind: 'article',
      key: null,
      category: { category_id: 11, name: 'Setup' },
      position: 1,
      author: null,
      updated_at: '2026-11-20T10:00:00Z',
      translations: [],
    } satisfies ContentListItem;
    const named = (id: number, name: string, position: number): ContentListItem => ({
      ...one,
      id,
      position,
      translations: [
        {
          lang: 'en',
          name,
          url: name.toLowerCase(),
          state: 'draft',
          publish_at: null,
          unpublish_at: null,
          published_at: null,
          updated_at: '2026-11-20T10:00:00Z',
          seo_title: '',
          seo_description: '',
        },
      ],
    });
    let articles = [named(51, 'Install', 1), named(52, 'Sign in', 2)];
    stubFetch({
      [helpCategoryEndpoints.list.url]: () =>
        jsonResponse(200, list(HELP.map((item) => ({ ...item, items_count: 2 })))),
      [articleEndpoints.list.url]: (request) =>
        jsonResponse(
          200,
          list(new URL(request.url).searchParams.get('category_id') === '11' ? articles : []),
        ),
      [articleEndpoints.sort.url]: () => {
        // Someone filed a third article here meanwhile.
        articles = [...articles, named(53, 'Devices', 3)];
        return jsonResponse(422, {
          code: 'validation_failed',
          errors_validation: { ids: ['input_errors.field_is_invalid'] },
          errors_info: [],
        });
      },
    });
    const { screen } = await renderApp('/en/admin/help-center/categories/sorting', admin);
    const section = screen.getByRole('region', { name: 'Order of the articles in a category' });
    await section.getByLabelText('Category').selectOptions('11');
    await section.getByRole('button', { name: 'Move Install down' }).click();
    await screen.getByRole('button', { name: 'Save order' }).click();
    await expect
      .element(
        screen.getByText(
          'The articles of this category changed while you were arranging them. Their current order is shown: arrange them again.',
        ),
      )
      .toBeVisible();
    const setup = section.getByRole('list', { name: 'Order of the articles in Setup' });
    await expect.element(setup.getByText('Devices')).toBeVisible();
    expect(
      setup
        .getByTestId('article-name')
        .elements()
        .map((element) => element.textContent),
    ).toEqual(['Install', 'Sign in', 'Devices']);
    await expect.element(screen.getByRole('button', { name: 'Save order' })).toBeDisabled();
  });

  it('offers to try again when the categories cannot be loaded', async () => {
    stubFetch({ [helpCategoryEndpoints.list.url]: () => errorResponse(503, 'unavailable') });
    const { screen } = await renderApp('/en/admin/help-center/categories/sorting', admin);
    await expect
      .element(screen.getByText('This could not be loaded'), { timeout: 10_000 })
      .toBeVisible();
    await expect.element(screen.getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});
