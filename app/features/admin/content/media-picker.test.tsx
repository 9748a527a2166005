import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { CONTENT_MESSAGES, type ContentMediaItem } from '#shared/contracts/admin/content.ts';
import { mediaEndpoints, mediaUseText } from '#shared/contracts/admin/content-media.ts';
import { ScriptedXhr } from '../../../test/scripted-xhr.ts';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { ConfirmHost } from '../../../ui/confirm-dialog.tsx';
import { imageMarkdown, MediaPicker, type PickedImage } from './media-picker.tsx';

// Issue 22 must-show 3: the picker staff insert images from, upload into (with progress and
// a required alt text) and delete from (a second confirmation when the image is in use).
afterEach(() => {
  vi.unstubAllGlobals();
  ScriptedXhr.last = undefined;
});

// A 1×1 PNG, so the grid's pictures really load.
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

function media(id: number, alt: string, extra: Partial<ContentMediaItem> = {}): ContentMediaItem {
  return {
    media_id: id,
    url: PIXEL,
    width: 1600,
    height: 900,
    bytes: 12_345,
    alt,
    original_name: `image-${id}.png`,
    uses: 0,
    created_at: '2026-11-20T10:00:00.000Z',
    ...extra,
  };
}

const page = (items: ContentMediaItem[]) => ({
  items,
  controls: { page: 1, per_page: 24, total: items.length, last_page: 1 },
});

function Harness({
  onPick,
  purpose,
}: {
  onPick: (image: PickedImage) => void;
  purpose?: 'insert' | 'choose';
}) {
  const [open, setOpen] = useState(true);
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false } } }),
  );
  return (
    <QueryClientProvider client={client}>
      <MediaPicker open={open} purpose={purpose} onClose={() => setOpen(false)} onPick={onPick} />
      <ConfirmHost />
    </QueryClientProvider>
  );
}

async function openPicker(
  items: ContentMediaItem[],
  routes: Parameters<typeof stubFetch>[0] = {},
  purpose?: 'insert' | 'choose',
) {
  let library = items;
  const seen = stubFetch({
    [mediaEndpoints.list.url]: (request) => {
      const search = new URL(request.url).searchParams.get('search') ?? '';
      return jsonResponse(200, page(library.filter((item) => item.alt.includes(search))));
    },
    ...routes,
  });
  const onPick = vi.fn();
  const screen = await render(<Harness onPick={onPick} purpose={purpose} />);
  const dialog = screen.getByRole('dialog', { name: 'Images' });
  await expect.element(dialog).toBeVisible();
  return {
    screen,
    dialog,
    seen,
    onPick,
    setLibrary: (next: ContentMediaItem[]) => {
      library = next;
    },
  };
}

describe('the media picker', () => {
  it('shows the library with its alt texts, searches it, and hands back the chosen image', async () => {
    const { dialog, seen, onPick } = await openPicker([
      media(1, 'A map of our servers'),
      media(2, 'The app on a phone', { uses: 2, width: 800, height: 1600 }),
    ]);
    await expect.element(dialog.getByText('A map of our servers')).toBeVisible();
    await expect.element(dialog.getByText('The app on a phone')).toBeVisible();
    await expect.element(dialog.getByText('800 × 1600 px')).toBeVisible();
    await expect.element(dialog.getByText('In use')).toBeVisible();

    await dialog.getByLabelText('Search by description or file name').fill('phone');
    await expect.element(dialog.getByText('A map of our servers')).not.toBeInTheDocument();
    const searched = seen.filter((request) => request.url.includes('search=phone'));
    expect(searched.length).toBeGreaterThan(0);

    await dialog.getByRole('button', { name: 'Insert “The app on a phone”' }).click();
    expect(onPick).toHaveBeenCalledWith({
      media_id: 2,
      url: PIXEL,
      alt: 'The app on a phone',
      width: 800,
      height: 1600,
    });
    await expect.element(dialog).not.toBeInTheDocument();
  });

  it('says Choose rather than Insert when the image is used elsewhere than in the text', async () => {
    const { dialog, onPick } = await openPicker([media(8, 'A router')], {}, 'choose');
    await expect
      .element(dialog)
      .toHaveAccessibleDescription('Choose an image from the library, or upload a new one first.');
    await expect.element(dialog.getByRole('button', { name: /^Insert/ })).not.toBeInTheDocument();
    await dialog.getByRole('button', { name: 'Choose “A router”' }).click();
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ media_id: 8, alt: 'A router' }));
    await expect.element(dialog).not.toBeInTheDocument();
  });

  it('needs the alt text, then uploads with a progress bar and shows the new image', async () => {
    vi.stubGlobal('XMLHttpRequest', ScriptedXhr);
    const { dialog, setLibrary } = await openPicker([]);
    await expect.element(dialog.getByText('No images yet')).toBeVisible();
    const file = new File([new Uint8Array(4096)], 'router.png', { type: 'image/png' });
    await userEvent.upload(dialog.getByTestId('media-file-input'), file);
    await expect.element(dialog.getByTestId('media-file-name')).toHaveTextContent('router.png');

    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    const alt = dialog.getByLabelText('Alternative text');
    await expect
      .element(alt)
      .toHaveAccessibleDescription('Describe the image for people who cannot see it.');
    expect(ScriptedXhr.last).toBeUndefined();

    await alt.fill('Our router, lights on');
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    const bar = dialog.getByRole('progressbar', { name: 'Uploading the image' });
    await expect.element(bar).toHaveAttribute('aria-valuenow', '0');
    const xhr = ScriptedXhr.current();
    expect(xhr.url).toBe(mediaEndpoints.upload.url);
    const sent = xhr.body as FormData;
    expect(sent.get('alt')).toBe('Our router, lights on');
    expect((sent.get('image') as File).name).toBe('router.png');

    xhr.progress(1024, 4096);
    await expect.element(bar).toHaveAttribute('aria-valuenow', '25');
    xhr.progress(3072, 4096);
    await expect.element(bar).toHaveAttribute('aria-valuenow', '75');

    const created = media(7, 'Our router, lights on');
    setLibrary([created]);
    xhr.respond(201, JSON.stringify({ media: created }));
    await expect.element(bar).not.toBeInTheDocument();
    await expect.element(dialog.getByText('Our router, lights on')).toBeVisible();
    await expect.element(alt).toHaveValue('');
  });

  it("shows the server's refusal of the file under it", async () => {
    vi.stubGlobal('XMLHttpRequest', ScriptedXhr);
    const { dialog } = await openPicker([]);
    await userEvent.upload(
      dialog.getByTestId('media-file-input'),
      new File([new Uint8Array(64)], 'notes.png', { type: 'image/png' }),
    );
    await dialog.getByLabelText('Alternative text').fill('Notes');
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    ScriptedXhr.current().respond(
      422,
      JSON.stringify({
        code: 'validation_failed',
        errors_validation: { image: [CONTENT_MESSAGES.notAnImage] },
      }),
    );
    await expect
      .element(dialog.getByRole('button', { name: 'Choose another image' }))
      .toHaveAccessibleDescription('This file is not an image we can use.');
    await expect.element(dialog.getByLabelText('Alternative text')).toHaveValue('Notes');
  });

  it('deletes after a confirmation, and asks again naming the places when the image is in use', async () => {
    const deletes: unknown[] = [];
    const { screen, dialog, setLibrary } = await openPicker([media(3, 'Router lights')], {
      [mediaEndpoints.delete.url]: async (request) => {
        const body = (await request.json()) as { in_use_confirmed?: boolean };
        deletes.push(body);
        if (!body.in_use_confirmed) {
          return jsonResponse(422, {
            code: 'validation_failed',
            errors_validation: {
              in_use_confirmed: [
                CONTENT_MESSAGES.mediaInUse,
                mediaUseText({ kind: 'post', lang: 'en', name: 'Router setup' }),
                mediaUseText({ kind: 'main_page', lang: 'fr', name: 'pricing' }),
              ],
            },
          });
        }
        setLibrary([]);
        return jsonResponse(200, { success: true });
      },
    });
    await dialog.getByRole('button', { name: 'Delete “Router lights”' }).click();
    const first = screen.getByRole('dialog', { name: 'Delete this image?' });
    await expect.element(first).toBeVisible();
    await first.getByRole('button', { name: 'Delete', exact: true }).click();

    const second = screen.getByRole('dialog', { name: 'This image is in use' });
    await expect
      .element(second)
      .toHaveAccessibleDescription(
        'It is shown in: Blog post “Router setup” (English); Main page “Pricing” (French). ' +
          'If you delete it, those texts stay as they are, but the image no longer shows there.',
      );
    await second.getByRole('button', { name: 'Delete anyway' }).click();
    await expect.element(dialog.getByText('No images yet')).toBeVisible();
    expect(deletes).toEqual([
      { media_id: 3, in_use_confirmed: false },
      { media_id: 3, in_use_confirmed: true },
    ]);
  });

  it('keeps the image when the second question is answered no', async () => {
    const deletes: unknown[] = [];
    const { screen, dialog } = await openPicker([media(4, 'Kept')], {
      [mediaEndpoints.delete.url]: async (request) => {
        deletes.push(await request.json());
        return jsonResponse(422, {
          code: 'validation_failed',
          errors_validation: {
            in_use_confirmed: [
              CONTENT_MESSAGES.mediaInUse,
              mediaUseText({ kind: 'article', lang: 'es', name: 'Instalar' }),
            ],
          },
        });
      },
    });
    await dialog.getByRole('button', { name: 'Delete “Kept”' }).click();
    await screen
      .getByRole('dialog', { name: 'Delete this image?' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await screen
      .getByRole('dialog', { name: 'This image is in use' })
      .getByRole('button', { name: 'Keep it' })
      .click();
    await expect.element(dialog.getByText('Kept')).toBeVisible();
    expect(deletes).toHaveLength(1);
  });
});

describe('imageMarkdown', () => {
  it('writes the image with its alt text taken literally', () => {
    expect(imageMarkdown({ url: '/media/content/abc.webp', alt: 'A [big]\nrouter' })).toBe(
      '![A \\[big\\] router](/media/content/abc.webp)',
    );
  });
});
