import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  blogCategoryEndpoints,
  CONTENT_MESSAGES,
  postEndpoints,
} from '#shared/contracts/admin/content.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';

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

afterEach(() => {
  vi.unstubAllGlobals();
});

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
  it('makes the address from the title, previews the Markdown and checks SEO as staff type', async () => {
    const { screen } = await openCreate(() => jsonResponse(500, {}));
    await screen.getByLabelText('Title', { exact: true }).fill('Why WireGuard is fast');
    await expect
      .element(screen.getByLabelText('Address (slug)'))
      .toHaveValue('why-wireguard-is-fast');
    await screen
      .getByRole('textbox', { name: 'Text (Markdown)' })
      .fill('## Why WireGuard\n\n<script>alert(1)</script>It is **small**.');
    await screen.getByLabelText('Focus keyphrase').fill('wireguard');
    await expect.element(screen.getByText('The title contains the keyphrase.')).toBeVisible();
    await expect.element(screen.getByText('A heading contains the keyphrase.')).toBeVisible();
    await screen.getByRole('tab', { name: 'Preview' }).click();
    const preview = screen.getByRole('tabpanel', { name: 'Preview' });
    await expect
      .element(preview.getByRole('heading', { level: 2 }))
      .toHaveTextContent('Why WireGuard');
    expect(document.querySelector('.content-prose script')).toBeNull();
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
