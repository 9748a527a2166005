import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CONTENT_MESSAGES,
  helpCategoryEndpoints,
  postEndpoints,
  seoEndpoints,
} from '#shared/contracts/admin/content.ts';
import { mediaEndpoints } from '#shared/contracts/admin/content-media.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { PIXEL, testMedia } from '../content/content-test-data.ts';

// The posts' SEO list: each row says how its SEO title and description measure, the SEO
// fields of one translation change in a dialog, and a save over someone else's newer one is
// refused, said, and read again with what was typed kept.
const author = testUser({ id: 7, role: 'AUTHOR', name: 'Otto Author' });
const when = '2025-05-01T10:00:00.000Z';

const summary = {
  lang: 'en',
  name: 'Public Wi-Fi safety',
  url: 'public-wi-fi-safety',
  state: 'published',
  publish_at: null,
  unpublish_at: null,
  published_at: when,
  updated_at: when,
  seo_title: '',
  seo_description: '',
};

function postWith(version: number, seoTitle: string, ogImageId: number | null = null) {
  return {
    id: 41,
    kind: 'post',
    key: null,
    category: null,
    category_id: null,
    cover_image_id: null,
    position: 0,
    author: { user_id: 7, name: 'Otto Author' },
    updated_at: when,
    can_publish: true,
    translations: [
      {
        ...summary,
        contents: 'Public Wi-Fi is convenient.',
        contents_html: '<p>Public Wi-Fi is convenient.</p>',
        summary: '',
        seo_title: seoTitle,
        seo_description: '',
        focus_keyphrase: '',
        og_image_id: ogImageId,
        canonical_url: '',
        tags: [],
        questions: [],
        toc: [],
        words: 4,
        reading_minutes: 1,
        author: { user_id: 7, name: 'Otto Author' },
        updated_by: null,
        version,
        created_at: when,
      },
    ],
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the posts’ SEO list', () => {
  it('edits one translation’s SEO fields, and on a 409 says so and reads it again', async () => {
    let post = postWith(3, '');
    let saves = 0;
    const seen = stubFetch({
      [postEndpoints.list.url]: () =>
        jsonResponse(200, {
          items: [{ ...post, translations: [summary] }],
          controls: { page: 1, per_page: 20, total: 1, last_page: 1 },
        }),
      [postEndpoints.view.url]: () => jsonResponse(200, { item: post }),
      [seoEndpoints.updateItem.url]: () => {
        saves += 1;
        if (saves === 1) {
          // Someone else saved meanwhile: version 4 now, with their SEO title.
          post = postWith(4, 'Their title');
          return jsonResponse(409, {
            code: 'conflict',
            errors_validation: {},
            errors_info: [CONTENT_MESSAGES.staleVersion],
          });
        }
        return jsonResponse(200, { success: true });
      },
    });
    const { screen } = await renderApp('/en/admin/seo/posts', author);
    await expect
      .element(screen.getByRole('heading', { level: 1, name: 'SEO: blog posts' }))
      .toBeVisible();
    const row = screen.getByRole('row', { name: /Public Wi-Fi safety/ });
    await expect.element(row.getByText('Title: missing')).toBeVisible();
    await expect.element(row.getByText('Description: missing')).toBeVisible();

    await row.getByRole('button', { name: 'Edit SEO: Public Wi-Fi safety' }).click();
    const dialog = screen.getByRole('dialog', { name: 'SEO of “Public Wi-Fi safety” in English' });
    await dialog.getByLabelText('SEO title').fill('Is public Wi-Fi safe? What a VPN changes');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();

    await expect
      .element(dialog.getByRole('alert'))
      .toHaveTextContent('Someone saved this text while you were editing.');
    await expect
      .element(dialog.getByLabelText('SEO title'))
      .toHaveValue('Is public Wi-Fi safe? What a VPN changes');
    const updates = () =>
      seen.filter((request) => request.url.endsWith(seoEndpoints.updateItem.url));
    expect(await updates()[0]?.json()).toMatchObject({ id: 41, lang: 'en', version: 3 });

    // Saved again over the version read after the refusal.
    await expect
      .poll(() => seen.filter((r) => r.url.includes(postEndpoints.view.url)).length)
      .toBeGreaterThan(1);
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.element(screen.getByText('SEO settings saved')).toBeVisible();
    await expect.element(screen.getByRole('dialog')).not.toBeInTheDocument();
    expect(await updates()[1]?.json()).toEqual({
      id: 41,
      lang: 'en',
      version: 4,
      seo_title: 'Is public Wi-Fi safe? What a VPN changes',
      seo_description: '',
      focus_keyphrase: '',
      og_image_id: null,
      canonical_url: '',
    });
  });
});

// A 1×1 PNG, so the thumbnails really load.
const image = (id: number, alt: string) => testMedia(id, alt, 1);

describe('the Open Graph image in the SEO dialog', () => {
  it('shows the stored image with its alt text, changes it from the library and removes it', async () => {
    const post = postWith(3, '', 5);
    const seen = stubFetch({
      [postEndpoints.list.url]: () =>
        jsonResponse(200, {
          items: [{ ...post, translations: [summary] }],
          controls: { page: 1, per_page: 20, total: 1, last_page: 1 },
        }),
      [postEndpoints.view.url]: () => jsonResponse(200, { item: post }),
      [mediaEndpoints.list.url]: () =>
        jsonResponse(200, {
          items: [image(9, 'Padlock on a laptop'), image(5, 'Café with free Wi-Fi')],
          controls: { page: 1, per_page: 100, total: 2, last_page: 1 },
        }),
      // The stored choice is read on its own.
      [mediaEndpoints.view.url]: (request) =>
        new URL(request.url).searchParams.get('media_id') === '5'
          ? jsonResponse(200, { media: image(5, 'Café with free Wi-Fi') })
          : jsonResponse(404, { code: 'not_found', errors_info: [], errors_validation: {} }),
      [seoEndpoints.updateItem.url]: () => jsonResponse(200, { success: true }),
    });
    const { screen } = await renderApp('/en/admin/seo/posts', author);
    await screen
      .getByRole('row', { name: /Public Wi-Fi safety/ })
      .getByRole('button', { name: 'Edit SEO: Public Wi-Fi safety' })
      .click();
    const dialog = screen.getByRole('dialog', { name: 'SEO of “Public Wi-Fi safety” in English' });
    const field = dialog.getByRole('group', { name: 'Open Graph image' });
    await expect.element(field.getByText('Café with free Wi-Fi')).toBeVisible();
    expect(field.element().querySelector('img')?.getAttribute('src')).toBe(PIXEL);

    // The library opens over the dialog; choosing closes it alone.
    await field.getByRole('button', { name: 'Change the image' }).click();
    const picker = screen.getByRole('dialog', { name: 'Images' });
    await picker.getByRole('button', { name: 'Choose “Padlock on a laptop”' }).click();
    await expect.element(picker).not.toBeInTheDocument();
    await expect.element(dialog).toBeVisible();
    await expect.element(field.getByText('Padlock on a laptop')).toBeVisible();
    await expect.element(field.getByRole('button', { name: 'Change the image' })).toHaveFocus();

    await field.getByRole('button', { name: 'Remove the image' }).click();
    await expect
      .element(field.getByText('No image: links to this page are shared without a picture.'))
      .toBeVisible();
    expect(field.element().querySelector('img')).toBeNull();
    await field.getByRole('button', { name: 'Choose an image' }).click();
    await screen
      .getByRole('dialog', { name: 'Images' })
      .getByRole('button', { name: 'Choose “Padlock on a laptop”' })
      .click();
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.element(screen.getByText('SEO settings saved')).toBeVisible();
    const sent = seen.find((request) => request.url.endsWith(seoEndpoints.updateItem.url));
    expect(await sent?.json()).toMatchObject({ id: 41, lang: 'en', version: 3, og_image_id: 9 });
  });
});

describe('the categories’ SEO list', () => {
  it('shows the help center’s categories in the chosen language and saves one’s SEO fields', async () => {
    const category = {
      category_id: 8,
      kind: 'help',
      parent_category_id: null,
      position: 1,
      items_count: 3,
      translations: [
        {
          lang: 'fr',
          name: 'Facturation',
          url: 'facturation',
          description: '',
          seo_title:
            'Facturation et paiements de votre abonnement VPN, expliqués simplement pour tous',
          seo_description: '',
          focus_keyphrase: '',
          og_image_id: null,
          canonical_url: '',
        },
      ],
    };
    const seen = stubFetch({
      [helpCategoryEndpoints.list.url]: () =>
        jsonResponse(200, {
          items: [category],
          controls: { page: 1, per_page: 50, total: 1, last_page: 1 },
        }),
      [seoEndpoints.updateCategory.url]: () => jsonResponse(200, { success: true }),
    });
    const { screen } = await renderApp('/en/admin/seo/categories?tree=help&lang=fr', author);
    const row = screen.getByRole('row', { name: /Facturation/ });
    await expect.element(row.getByText('Title: too long')).toBeVisible();
    const listed = seen.find((request) => request.url.includes(helpCategoryEndpoints.list.url));
    expect(new URL(listed?.url ?? '').searchParams.get('lang')).toBe('fr');

    await row.getByRole('button', { name: 'Edit SEO: Facturation' }).click();
    const dialog = screen.getByRole('dialog');
    await dialog.getByLabelText('SEO title').fill('Facturation de votre VPN');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.element(screen.getByRole('dialog')).not.toBeInTheDocument();
    const sent = seen.find((request) => request.url.endsWith(seoEndpoints.updateCategory.url));
    expect(await sent?.json()).toMatchObject({
      category_id: 8,
      lang: 'fr',
      seo_title: 'Facturation de votre VPN',
    });
  });
});
