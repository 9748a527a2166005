import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAIN_PAGES } from '#shared/content/content-values.ts';
import { CONTENT_MESSAGES, seoEndpoints } from '#shared/contracts/admin/content.ts';
import { mediaEndpoints } from '#shared/contracts/admin/content-media.ts';
import { LANGS } from '#shared/locales.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { type FetchHandler, jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';

// The main pages' SEO screen as staff use it: a page and language chosen in the table, the
// SEO check and the character counts following the typing, one save per page and language,
// and a refusal under its field (or above the form) with nothing typed lost.
const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });

const mainPages = () => ({
  items: MAIN_PAGES.map((page) => ({
    page,
    faq_id: null,
    translations: LANGS.map((lang) => ({
      lang,
      seo_title: page === 'pricing' && lang === 'es' ? 'Precios de la VPN' : '',
      seo_description: '',
      focus_keyphrase: '',
      og_image_id: null,
      canonical_url: '',
      updated_at: null,
    })),
  })),
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function open(update: FetchHandler) {
  const seen = stubFetch({
    [seoEndpoints.mainPages.url]: () => jsonResponse(200, mainPages()),
    [seoEndpoints.updateMainPage.url]: update,
    [mediaEndpoints.list.url]: () =>
      jsonResponse(200, {
        items: [
          {
            media_id: 12,
            url: '/media/content/k3y.webp',
            width: 1200,
            height: 630,
            bytes: 2_048,
            alt: 'Our app on a laptop',
            original_name: 'laptop.png',
            uses: 0,
            created_at: '2026-11-20T10:00:00.000Z',
          },
        ],
        controls: { page: 1, per_page: 24, total: 1, last_page: 1 },
      }),
  });
  const { screen } = await renderApp('/en/admin/seo/main-pages', admin);
  await expect
    .element(screen.getByRole('heading', { level: 1, name: 'SEO: main pages' }))
    .toBeVisible();
  await expect.element(screen.getByRole('heading', { name: 'Home in English' })).toBeVisible();
  const sent = () =>
    seen.filter((request) => request.url.endsWith(seoEndpoints.updateMainPage.url));
  return { screen, sent };
}

describe('the main pages’ SEO', () => {
  it('checks as staff type and saves one page in one language', async () => {
    const { screen, sent } = await open(() => jsonResponse(200, { success: true }));
    await screen.getByLabelText('SEO title').fill('Fast private VPN for every device');
    await screen.getByLabelText('Focus keyphrase').fill('private vpn');
    await expect.element(screen.getByText('The title contains the keyphrase.')).toBeVisible();
    await expect
      .element(screen.getByText('33 characters (search results show 30–60 well)'))
      .toBeVisible();
    await screen.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.element(screen.getByText('SEO settings saved')).toBeVisible();
    expect(sent()).toHaveLength(1);
    expect(await sent()[0]?.json()).toEqual({
      page: 'home',
      lang: 'en',
      seo_title: 'Fast private VPN for every device',
      seo_description: '',
      focus_keyphrase: 'private vpn',
      og_image_id: null,
      canonical_url: '',
    });
    // Another page and language: its own stored settings.
    await screen
      .getByRole('button', { name: /^Pricing, Spanish: title too short, description missing/ })
      .click();
    await expect.element(screen.getByRole('heading', { name: 'Pricing in Spanish' })).toBeVisible();
    await expect.element(screen.getByLabelText('SEO title')).toHaveValue('Precios de la VPN');
  });

  it('shows a refusal under its field and keeps what was typed', async () => {
    const { screen, sent } = await open(() =>
      jsonResponse(422, {
        code: 'validation_failed',
        errors_validation: { og_image_id: [CONTENT_MESSAGES.unknownMedia] },
        errors_info: [],
      }),
    );
    await screen.getByLabelText('SEO title').fill('Fast private VPN for every device');
    // Refused in the browser first: no request for an address that is not one.
    await screen.getByLabelText('Canonical address').fill('not an address');
    await screen.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .element(screen.getByText('Give a full address starting with https://.'))
      .toBeVisible();
    await expect.element(screen.getByLabelText('Canonical address')).toHaveFocus();
    expect(sent()).toHaveLength(0);

    await screen.getByLabelText('Canonical address').fill('');
    const image = screen.getByRole('group', { name: 'Open Graph image' });
    await image.getByRole('button', { name: 'Choose an image' }).click();
    await screen
      .getByRole('dialog', { name: 'Images' })
      .getByRole('button', { name: 'Choose “Our app on a laptop”' })
      .click();
    await expect.element(image.getByText('Our app on a laptop')).toBeVisible();
    await screen.getByRole('button', { name: 'Save', exact: true }).click();
    // The refusal under the chooser, which takes the focus and reads it.
    await expect.element(image.getByText('This image no longer exists.')).toBeVisible();
    const change = image.getByRole('button', { name: 'Change the image' });
    await expect.element(change).toHaveFocus();
    await expect
      .element(change)
      .toHaveAccessibleDescription('Our app on a laptop This image no longer exists.');
    await expect
      .element(screen.getByLabelText('SEO title'))
      .toHaveValue('Fast private VPN for every device');
    expect(await sent()[0]?.json()).toMatchObject({ og_image_id: 12 });
  });

  it('says why an author may not change what the live site shows', async () => {
    const { screen } = await open(() =>
      jsonResponse(403, {
        code: 'forbidden',
        errors_validation: {},
        errors_info: [CONTENT_MESSAGES.liveSettingsNotAllowed],
      }),
    );
    await screen.getByLabelText('Meta description').fill('A VPN without logs.');
    await screen.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .element(screen.getByRole('alert'))
      .toHaveTextContent(
        'These settings show on the live site: only someone who may publish can change them.',
      );
    await expect
      .element(screen.getByLabelText('Meta description'))
      .toHaveValue('A VPN without logs.');
  });
});
