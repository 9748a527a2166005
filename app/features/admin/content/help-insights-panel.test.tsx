import { afterEach, describe, expect, it, vi } from 'vitest';
import { articleEndpoints } from '#shared/contracts/admin/content.ts';
import { type HelpInsights, helpInsightsEndpoints } from '#shared/contracts/admin/help-insights.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { errorResponse, jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';

// The help center's overview shows staff the searches that found nothing and the articles'
// votes, with loading, empty and error states (issue 23 must-show 4).
const author = testUser({ id: 7, role: 'AUTHOR', name: 'Otto Author' });
const PATH = '/en/admin/help-center/articles/published';
const noArticles = () =>
  jsonResponse(200, { items: [], controls: { page: 1, per_page: 20, total: 0, last_page: 1 } });

afterEach(() => vi.unstubAllGlobals());

describe('help-center insights', () => {
  it('lists the searches without results and the votes, each article linked to its editor', async () => {
    const insights: HelpInsights = {
      misses: [
        { lang: 'en', query: 'kill switch', count: 12, last_searched_at: '2026-11-20T10:00:00Z' },
        { lang: 'ru', query: 'торрент', count: 3, last_searched_at: '2026-11-21T10:00:00Z' },
      ],
      votes: [
        {
          item_id: 41,
          translation_id: 410,
          lang: 'fr',
          title: 'Ajouter un appareil',
          yes: 5,
          no: 2,
          last_voted_at: '2026-11-21T10:00:00Z',
        },
      ],
    };
    stubFetch({
      [articleEndpoints.list.url]: noArticles,
      [helpInsightsEndpoints.view.url]: () => jsonResponse(200, insights),
    });
    const { screen } = await renderApp(PATH, author);
    const misses = screen.getByRole('table', { name: 'Searches without results' });
    await expect.element(misses.getByRole('cell', { name: 'kill switch' })).toBeVisible();
    await expect.element(misses.getByRole('cell', { name: '12' })).toBeVisible();
    await expect.element(misses.getByRole('cell', { name: 'торрент' })).toBeVisible();
    const votes = screen.getByRole('table', { name: 'Was this helpful?' });
    await expect
      .element(votes.getByRole('link', { name: 'Ajouter un appareil' }))
      .toHaveAttribute('href', '/en/admin/help-center/articles/edit/41');
    await expect
      .element(votes.getByRole('row', { name: /Ajouter un appareil.*5.*2/ }))
      .toBeVisible();
  });

  it('says when there is nothing yet', async () => {
    stubFetch({
      [articleEndpoints.list.url]: noArticles,
      [helpInsightsEndpoints.view.url]: () => jsonResponse(200, { misses: [], votes: [] }),
    });
    const { screen } = await renderApp(PATH, author);
    await expect.element(screen.getByText('No searches without results')).toBeVisible();
    await expect.element(screen.getByText('No votes yet')).toBeVisible();
  });

  it('offers to try again after a failure', async () => {
    let calls = 0;
    stubFetch({
      [articleEndpoints.list.url]: noArticles,
      [helpInsightsEndpoints.view.url]: () => {
        calls += 1;
        // The query cache retries once on its own: both tries fail.
        return calls <= 2
          ? errorResponse(500, 'internal')
          : jsonResponse(200, { misses: [], votes: [] });
      },
    });
    const { screen } = await renderApp(PATH, author);
    const section = screen.getByRole('region', { name: 'Search and feedback' });
    await section.getByRole('button', { name: 'Try again' }).click();
    await expect.element(screen.getByText('No votes yet')).toBeVisible();
  });
});
