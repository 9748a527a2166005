import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAIN_PAGES } from '#shared/content/content-values.ts';
import { faqEndpoints, seoEndpoints } from '#shared/contracts/admin/content.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { testListItem } from '../content/content-test-data.ts';

// Which FAQ each main page shows: one choice per page, and a save sends the changed ones.
const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });
const when = '2025-05-01T10:00:00.000Z';

const faq = (id: number, name: string) =>
  testListItem(id, name, { kind: 'faq', position: 0, updated_at: when });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the FAQ placement', () => {
  it('places an FAQ on a page, takes one off another, and saves only those', async () => {
    const seen = stubFetch({
      [seoEndpoints.mainPages.url]: () =>
        jsonResponse(200, {
          items: MAIN_PAGES.map((page) => ({
            page,
            faq_id: page === 'pricing' ? 5 : null,
            translations: [],
          })),
        }),
      [faqEndpoints.list.url]: () =>
        jsonResponse(200, {
          items: [faq(5, 'Billing questions'), faq(6, 'Getting started')],
          controls: { page: 1, per_page: 100, total: 2, last_page: 1 },
        }),
      [seoEndpoints.mainPageFaq.url]: () => jsonResponse(200, { success: true }),
    });
    const { screen } = await renderApp('/en/admin/faq/pages/create', admin);
    await expect
      .element(screen.getByRole('heading', { level: 1, name: 'FAQ on the main pages' }))
      .toBeVisible();
    await expect.element(screen.getByLabelText('Pricing')).toHaveValue('5');
    await expect.element(screen.getByLabelText('Home')).toHaveValue('');

    await screen.getByLabelText('Home').selectOptions('Getting started');
    await screen.getByLabelText('Pricing').selectOptions('No FAQ');
    await screen.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.element(screen.getByText('FAQ placement saved')).toBeVisible();

    const sent = seen.filter((request) => request.url.endsWith(seoEndpoints.mainPageFaq.url));
    expect(await Promise.all(sent.map((request) => request.json()))).toEqual([
      { page: 'home', faq_id: 6 },
      { page: 'pricing', faq_id: null },
    ]);
    await expect.element(screen.getByLabelText('Home')).toHaveValue('6');
    await expect.element(screen.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  });
});
