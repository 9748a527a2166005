import { afterEach, describe, expect, it, vi } from 'vitest';
import { unsubscribeLinkEndpoints } from '#shared/contracts/notifications.ts';
import { renderApp } from '../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../test/stub-fetch.ts';

// The page a list mail's visible link opens: opening it changes nothing (mail scanners follow
// links), its button unsubscribes without signing in, and a used link answers calmly.

const LINK = '00000000-0000-4000-8000-000000000042';
const at = (url: string) => url.replace(':subscriberUuid', LINK);
const viewUrl = at(unsubscribeLinkEndpoints.view.url);

afterEach(() => vi.unstubAllGlobals());

describe('unsubscribe page', () => {
  it('asks first, and unsubscribes only by its button', async () => {
    const seen = stubFetch({
      [viewUrl]: () => jsonResponse(200, { list_name: 'Product news' }),
      [at(unsubscribeLinkEndpoints.oneClick.url)]: () => jsonResponse(200, { success: true }),
    });
    const { screen } = await renderApp(`/en/notifications/unsubscribe/${LINK}`, null);
    await expect
      .element(screen.getByRole('heading', { level: 1, name: 'Unsubscribe' }))
      .toBeVisible();
    await expect.element(screen.getByText('Stop receiving “Product news” e-mails?')).toBeVisible();
    expect(seen.filter((request) => request.method !== 'GET')).toEqual([]);

    await screen.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect
      .element(screen.getByRole('status'))
      .toHaveTextContent('You are unsubscribed from “Product news”.', {
        normalizeWhitespace: true,
      });
    const posts = seen.filter((request) => request.method === 'POST');
    expect(posts.map((request) => new URL(request.url).pathname)).toEqual([
      at(unsubscribeLinkEndpoints.oneClick.url),
    ]);
  });

  it('says there is nothing left to do for a used or unknown link', async () => {
    stubFetch({
      [viewUrl]: () => jsonResponse(200, { list_name: null }),
    });
    const { screen } = await renderApp(`/en/notifications/unsubscribe/${LINK}`, null);
    await expect
      .element(
        screen.getByText('This link is no longer subscribed to any list. Nothing more to do.'),
      )
      .toBeVisible();
    await expect
      .element(screen.getByRole('button', { name: 'Unsubscribe' }))
      .not.toBeInTheDocument();
  });
});
