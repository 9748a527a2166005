import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import {
  blogCategoryEndpoints,
  CONTENT_MESSAGES,
  type ContentItem,
  type ContentTranslation,
  contentEndpoints,
  postEndpoints,
} from '#shared/contracts/admin/content.ts';
import { mediaEndpoints } from '#shared/contracts/admin/content-media.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { testMedia as media, PIXEL } from './content-test-data.ts';
import { SIDE_BY_SIDE_MIN_PX } from './markdown-field.tsx';

// The content editor as staff use it: the address follows the title, the preview is the
// stored page's renderer, the SEO check follows every keystroke, and the server's refusal
// shows under its field with nothing typed lost.
const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });
const categories = {
  items: [
    {
      category_id: 3,
      kind: 'blog',
      parent_category_id: null,
      position: 1,
      items_count: 2,
      translations: [
        {
          lang: 'en',
          name: 'Guides',
          url: 'guides',
          description: '',
          seo_title: '',
          seo_description: '',
          focus_keyphrase: '',
          og_image_id: null,
          canonical_url: '',
        },
      ],
    },
  ],
  controls: { page: 1, per_page: 100, total: 1, last_page: 1 },
};

afterEach(async () => {
  vi.unstubAllGlobals();
  await page.viewport(1280, 800);
});

const markdownBox = () => {
  const area = document.querySelector('textarea.font-mono');
  return area?.closest('.flex-col')?.getBoundingClientRect().width ?? 0;
};

async function openCreate(create: Parameters<typeof stubFetch>[0][string]) {
  const seen = stubFetch({
    [blogCategoryEndpoints.list.url]: () => jsonResponse(200, categories),
    [postEndpoints.create.url]: create,
  });
  const { screen } = await renderApp('/en/admin/blog/posts/create', admin);
  await expect
    .element(screen.getByRole('heading', { level: 1, name: 'New blog post' }))
    .toBeVisible();
  return { screen, seen };
}

describe('the content editor', () => {
  it('makes the address from the title, previews the Markdown beside it and checks SEO as staff type', async () => {
    await page.viewport(1600, 900);
    const { screen } = await openCreate(() => jsonResponse(500, {}));
    expect(markdownBox()).toBeGreaterThanOrEqual(SIDE_BY_SIDE_MIN_PX);
    await screen.getByLabelText('Title', { exact: true }).fill('Why WireGuard is fast');
    await expect
      .element(screen.getByLabelText('Address (slug)'))
      .toHaveValue('why-wireguard-is-fast');
    const text = screen.getByRole('textbox', { name: 'Text (Markdown)' });
    await text.fill('## Why WireGuard\n\n<script>alert(1)</script>\n\nIt is **small**.');
    await screen.getByLabelText('Focus keyphrase').fill('wireguard');
    await expect.element(screen.getByText('The title contains the keyphrase.')).toBeVisible();
    await expect.element(screen.getByText('A heading contains the keyphrase.')).toBeVisible();
    // Beside the text, no tabs: the preview follows the typing, and is not announced.
    expect(screen.getByRole('tab', { name: 'Preview' }).query()).toBeNull();
    const preview = screen.getByRole('region', { name: 'Preview', exact: true });
    await expect
      .element(preview.getByRole('heading', { level: 2 }))
      .toHaveTextContent('Why WireGuard');
    await expect.element(preview).toHaveTextContent('It is small.');
    expect(preview.element().getAttribute('aria-live')).toBeNull();
    expect(document.querySelector('.content-prose script')).toBeNull();
    await expect.element(text).toBeVisible();

    await userEvent.type(text, ' Fast.');
    await expect.element(preview).toHaveTextContent('It is small. Fast.');
    await expect.element(text).toHaveFocus();
  });

  it('keeps Write and Preview as tabs where the field is narrow, by keyboard too', async () => {
    await page.viewport(700, 900);
    const { screen } = await openCreate(() => jsonResponse(500, {}));
    expect(markdownBox()).toBeLessThan(SIDE_BY_SIDE_MIN_PX);
    const text = screen.getByRole('textbox', { name: 'Text (Markdown)' });
    await text.fill('## Setup\n\nInstall the app.');
    const area = text.element();
    const write = screen.getByRole('tab', { name: 'Write' });
    await expect.element(write).toHaveAttribute('aria-selected', 'true');
    await write.click();
    await userEvent.keyboard('{ArrowRight}');
    const previewTab = screen.getByRole('tab', { name: 'Preview' });
    await expect.element(previewTab).toHaveFocus();
    await expect.element(previewTab).toHaveAttribute('aria-selected', 'true');
    const preview = screen.getByRole('tabpanel', { name: 'Preview' });
    await expect.element(preview.getByRole('heading', { level: 2 })).toHaveTextContent('Setup');
    // Hidden, not removed: back on Write, the caret and the undo history are where they were.
    expect(area.checkVisibility()).toBe(false);

    await userEvent.keyboard('{ArrowLeft}');
    await expect.element(write).toHaveFocus();
    await expect.element(text).toBeVisible();
    expect(text.element()).toBe(area);
    await expect.element(text).toHaveValue('## Setup\n\nInstall the app.');
  });

  it('sends the open language with its category, and shows a refusal under its field', async () => {
    const { screen, seen } = await openCreate(() =>
      jsonResponse(422, {
        code: 'validation_failed',
        errors_validation: { url: [CONTENT_MESSAGES.slugTaken] },
        errors_info: [],
      }),
    );
    await screen.getByLabelText('Title', { exact: true }).fill('Public Wi-Fi');
    await screen.getByLabelText('Category').selectOptions('3');
    await screen.getByRole('button', { name: 'Save' }).click();
    await expect.element(screen.getByText('This address is taken in this language.')).toBeVisible();
    await expect
      .element(screen.getByLabelText('Address (slug)'))
      .toHaveAttribute('aria-invalid', 'true');
    await expect
      .element(screen.getByLabelText('Title', { exact: true }))
      .toHaveValue('Public Wi-Fi');
    const sent = seen.find((request) => request.url.endsWith(postEndpoints.create.url));
    expect(await sent?.json()).toMatchObject({
      lang: 'en',
      name: 'Public Wi-Fi',
      url: 'public-wi-fi',
      category_id: 3,
      state: 'draft',
    });
  });
});

const at = '2026-11-20T10:00:00.000Z';
function translation(changes: Partial<ContentTranslation> = {}): ContentTranslation {
  return {
    lang: 'en',
    name: 'Public Wi-Fi',
    url: 'public-wi-fi',
    state: 'draft',
    publish_at: null,
    unpublish_at: null,
    published_at: null,
    updated_at: at,
    contents: 'A café network is shared.',
    contents_html: '<p>A café network is shared.</p>',
    summary: '',
    seo_title: '',
    seo_description: '',
    focus_keyphrase: '',
    og_image_id: null,
    canonical_url: '',
    tags: [],
    redirected_from: [],
    questions: [],
    toc: [],
    words: 5,
    reading_minutes: 1,
    author: { user_id: 9, name: 'Ada Admin' },
    updated_by: null,
    version: 3,
    created_at: at,
    ...changes,
  };
}
function post(changes: Partial<ContentTranslation> = {}): ContentItem {
  return {
    id: 41,
    kind: 'post',
    key: null,
    category: null,
    category_id: null,
    cover_image_id: null,
    position: 1,
    author: { user_id: 9, name: 'Ada Admin' },
    updated_at: at,
    can_publish: true,
    translations: [translation(changes)],
  };
}

async function openEdit(routes: Parameters<typeof stubFetch>[0], item = post()) {
  const seen = stubFetch({
    [blogCategoryEndpoints.list.url]: () => jsonResponse(200, categories),
    [postEndpoints.view.url]: () => jsonResponse(200, { item }),
    [contentEndpoints.revisions.url]: () =>
      jsonResponse(200, {
        items: [
          {
            revision_id: 7,
            lang: 'en',
            author: { user_id: 9, name: 'Ada Admin' },
            created_at: at,
            changed: ['name', 'contents'],
          },
        ],
        controls: { page: 1, per_page: 20, total: 1, last_page: 1 },
      }),
    ...routes,
  });
  const { screen } = await renderApp('/en/admin/blog/posts/edit/41', admin);
  await expect.element(screen.getByLabelText('Title', { exact: true })).toHaveValue('Public Wi-Fi');
  return { screen, seen };
}

describe('the editor on a saved text', () => {
  it('saves a draft on its own after typing stops, its text alone', async () => {
    const { screen, seen } = await openEdit({
      [postEndpoints.update.url]: async (request) => {
        const body = (await request.clone().json()) as { name: string };
        return jsonResponse(200, { item: post({ name: body.name, version: 4 }) });
      },
    });
    await screen.getByLabelText('Title', { exact: true }).fill('Public Wi-Fi, safely');
    await expect
      .element(screen.getByText(/Draft saved automatically at/), { timeout: 8_000 })
      .toBeVisible();
    const sent = seen.filter((request) => request.url.endsWith(postEndpoints.update.url));
    expect(sent).toHaveLength(1);
    const body = await sent[0]?.json();
    expect(body).toMatchObject({
      id: 41,
      version: 3,
      autosave: true,
      name: 'Public Wi-Fi, safely',
    });
    expect(body).not.toHaveProperty('category_id');
  });

  it('leaves a published text to its author to save', async () => {
    const { screen, seen } = await openEdit({}, post({ state: 'published', published_at: at }));
    await screen.getByLabelText('Title', { exact: true }).fill('Half typed');
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(seen.some((request) => request.url.endsWith(postEndpoints.update.url))).toBe(false);
  });

  it('shows a revision beside the current text and restores it', async () => {
    const { screen, seen } = await openEdit({
      [contentEndpoints.revision.url]: () =>
        jsonResponse(200, {
          revision: {
            revision_id: 7,
            lang: 'en',
            author: { user_id: 9, name: 'Ada Admin' },
            created_at: at,
            changed: ['name', 'contents'],
            name: 'Wi-Fi in cafés',
            url: 'public-wi-fi',
            summary: '',
            contents: 'An older text.',
            questions: [],
            seo_title: '',
            seo_description: '',
            focus_keyphrase: '',
            state: 'draft',
            tags: [],
          },
        }),
      [contentEndpoints.restore.url]: () =>
        jsonResponse(200, { item: post({ name: 'Wi-Fi in cafés', version: 4 }) }),
    });
    await screen.getByRole('button', { name: /View the revision of/ }).click();
    const dialog = screen.getByRole('dialog', { name: 'Revision' });
    await expect.element(dialog.getByText('Wi-Fi in cafés')).toBeVisible();
    await expect.element(dialog.getByText('An older text.')).toBeVisible();
    await expect.element(dialog.getByText('A café network is shared.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Restore this revision' }).click();
    await screen
      .getByRole('dialog', { name: 'Restore this revision?' })
      .getByRole('button', { name: 'Restore this revision' })
      .click();
    await expect
      .element(screen.getByLabelText('Title', { exact: true }))
      .toHaveValue('Wi-Fi in cafés');
    const restore = seen.find((request) => request.url.endsWith(contentEndpoints.restore.url));
    expect(await restore?.json()).toEqual({ revision_id: 7, version: 3 });
  });
});

describe('images in the text', () => {
  it('inserts an image chosen from the library as Markdown with its alt text', async () => {
    const { screen } = await openEdit({
      [mediaEndpoints.list.url]: () =>
        jsonResponse(200, {
          items: [
            {
              media_id: 5,
              url: '/media/content/k3y.webp',
              width: 1600,
              height: 900,
              bytes: 12_345,
              alt: 'A router on a desk',
              original_name: 'router.png',
              uses: 0,
              created_at: at,
            },
          ],
          controls: { page: 1, per_page: 24, total: 1, last_page: 1 },
        }),
    });
    await screen.getByRole('button', { name: 'Insert an image' }).click();
    await screen.getByRole('button', { name: 'Insert “A router on a desk”' }).click();
    await expect
      .element(screen.getByRole('textbox', { name: 'Text (Markdown)' }))
      .toHaveValue('A café network is shared.\n\n![A router on a desk](/media/content/k3y.webp)\n');
  });
});

// A 1×1 PNG, so the thumbnails really load.

describe('the Open Graph image', () => {
  it('shows the stored one, changes it from the library, saves it with the text and shows a refusal under it', async () => {
    const library = [media(6, 'The app on a phone'), media(5, 'A router on a desk')];
    const { screen, seen } = await openEdit(
      {
        [mediaEndpoints.list.url]: () =>
          jsonResponse(200, {
            items: library,
            controls: { page: 1, per_page: 100, total: 2, last_page: 1 },
          }),
        // The stored choice is read on its own.
        [mediaEndpoints.view.url]: () =>
          jsonResponse(200, { media: media(5, 'A router on a desk') }),
        [postEndpoints.update.url]: () =>
          jsonResponse(422, {
            code: 'validation_failed',
            errors_validation: { og_image_id: [CONTENT_MESSAGES.unknownMedia] },
            errors_info: [],
          }),
      },
      post({ og_image_id: 5 }),
    );
    const field = screen.getByRole('group', { name: 'Open Graph image' });
    await expect.element(field.getByText('A router on a desk')).toBeVisible();
    await expect.element(field.getByRole('img')).not.toBeInTheDocument();
    const thumbnail = field.element().querySelector('img');
    expect(thumbnail?.getAttribute('src')).toBe(PIXEL);

    await field.getByRole('button', { name: 'Change the image' }).click();
    const picker = screen.getByRole('dialog', { name: 'Images' });
    await expect.element(picker).toBeVisible();
    await picker.getByRole('button', { name: 'Choose “The app on a phone”' }).click();
    await expect.element(picker).not.toBeInTheDocument();
    await expect.element(field.getByText('The app on a phone')).toBeVisible();

    await screen.getByRole('button', { name: 'Save', exact: true }).click();
    const change = field.getByRole('button', { name: 'Change the image' });
    await expect
      .element(change)
      .toHaveAccessibleDescription('The app on a phone This image no longer exists.');
    const sent = seen.find((request) => request.url.endsWith(postEndpoints.update.url));
    expect(await sent?.json()).toMatchObject({ id: 41, lang: 'en', og_image_id: 6 });

    await field.getByRole('button', { name: 'Remove the image' }).click();
    await expect
      .element(field.getByText('No image: links to this page are shared without a picture.'))
      .toBeVisible();
    await expect.element(field.getByRole('button', { name: 'Choose an image' })).toHaveFocus();
    await expect.element(screen.getByText('This image no longer exists.')).not.toBeInTheDocument();
  });
});
