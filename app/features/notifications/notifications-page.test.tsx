import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  NOTIFICATION_MESSAGES,
  type NotificationList,
  type NotificationSubscription,
  notificationEndpoints,
} from '#shared/contracts/notifications.ts';
import { renderApp, testUser } from '../../test/render-app.tsx';
import { errorResponse, jsonResponse, stubFetch } from '../../test/stub-fetch.ts';

// §2 account.notifications (and staff's admin.account.notifications): a switch per list, each
// change announced; leaving every list after a confirm; an error with retry.

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const NEWS: NotificationList = {
  listUuid: uuid(1),
  name: 'Product news',
  description: 'New features, about once a month.',
  visible: true,
};
const OFFERS: NotificationList = {
  listUuid: uuid(2),
  name: 'Offers and discounts',
  description: 'Seasonal deals.',
  visible: true,
};
const page = <T,>(items: T[]) => ({
  items,
  controls: { page: 1, per_page: 100, total: items.length, last_page: 1 },
});

/** The server's side of one's subscriptions, held in memory for a test. */
function ownSubscriptions(base: 'account' | 'dashboard', initial: NotificationList[]) {
  const at = <K extends keyof typeof notificationEndpoints>(name: K) =>
    notificationEndpoints[name][base].url;
  let subscriptions: NotificationSubscription[] = initial.map((list, index) => ({
    subscriberUuid: uuid(100 + index),
    listUuid: list.listUuid,
    name: list.name,
    description: list.description,
    created_at: '2026-11-20T10:00:00.000Z',
  }));
  const posted: { path: string; body: unknown }[] = [];
  const post = async (request: Request) => {
    const text = await request.text();
    const body: unknown = text ? JSON.parse(text) : null;
    posted.push({ path: new URL(request.url).pathname, body });
    return body;
  };
  const routes = {
    [at('lists')]: () => jsonResponse(200, page([NEWS, OFFERS])),
    [at('subscriptions')]: () => jsonResponse(200, page(subscriptions)),
    [at('subscribe')]: async (request: Request) => {
      const { listUuid } = (await post(request)) as { listUuid: string };
      const list = [NEWS, OFFERS].find((each) => each.listUuid === listUuid);
      if (!list) return errorResponse(404, 'not_found');
      const subscription = {
        subscriberUuid: uuid(200),
        listUuid: list.listUuid,
        name: list.name,
        description: list.description,
        created_at: '2026-11-21T10:00:00.000Z',
      };
      subscriptions = [...subscriptions, subscription];
      return jsonResponse(200, { subscription });
    },
    [at('unsubscribe')]: async (request: Request) => {
      const { subscriberUuid } = (await post(request)) as { subscriberUuid: string };
      subscriptions = subscriptions.filter((each) => each.subscriberUuid !== subscriberUuid);
      return jsonResponse(200, { success: true });
    },
    [at('unsubscribeAll')]: async (request: Request) => {
      await post(request);
      const removed = subscriptions.length;
      subscriptions = [];
      return jsonResponse(200, { success: true, removed });
    },
  };
  return { routes, posted, at };
}

afterEach(() => vi.unstubAllGlobals());

describe('notification settings', () => {
  it('turns one list on and another off, each by its switch, and announces it', async () => {
    const server = ownSubscriptions('account', [NEWS]);
    stubFetch(server.routes);
    const { screen } = await renderApp('/en/account/notifications', testUser());
    const news = screen.getByRole('switch', { name: 'Product news' });
    const offers = screen.getByRole('switch', { name: 'Offers and discounts' });
    await expect.element(news).toHaveAttribute('aria-checked', 'true');
    await expect.element(offers).toHaveAttribute('aria-checked', 'false');
    await expect.element(offers).toHaveAccessibleDescription('Seasonal deals.');

    await offers.click();
    await expect.element(offers).toHaveAttribute('aria-checked', 'true');
    await expect
      .element(screen.getByRole('status').filter({ hasText: 'Subscribed to Offers and discounts' }))
      .toBeInTheDocument();

    await news.click();
    await expect.element(news).toHaveAttribute('aria-checked', 'false');
    await expect
      .element(screen.getByRole('status').filter({ hasText: 'Unsubscribed from Product news' }))
      .toBeInTheDocument();
    expect(server.posted).toEqual([
      { path: server.at('subscribe'), body: { listUuid: OFFERS.listUuid } },
      { path: server.at('unsubscribe'), body: { subscriberUuid: uuid(100) } },
    ]);
  });

  it('serves staff their own settings through the dashboard base', async () => {
    const server = ownSubscriptions('dashboard', [OFFERS]);
    stubFetch(server.routes);
    const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });
    const { screen } = await renderApp('/en/admin/account/notifications', admin);
    const offers = screen.getByRole('switch', { name: 'Offers and discounts' });
    await expect.element(offers).toHaveAttribute('aria-checked', 'true');
    await offers.click();
    await expect.element(offers).toHaveAttribute('aria-checked', 'false');
    expect(server.posted).toEqual([
      { path: server.at('unsubscribe'), body: { subscriberUuid: uuid(100) } },
    ]);
  });

  it('says why a list cannot be joined and leaves its switch off', async () => {
    const server = ownSubscriptions('account', []);
    stubFetch({
      ...server.routes,
      [server.at('subscribe')]: () =>
        jsonResponse(422, {
          code: 'validation_failed',
          errors_validation: { listUuid: [NOTIFICATION_MESSAGES.listNotFound] },
          errors_info: [],
        }),
    });
    const { screen } = await renderApp('/en/account/notifications', testUser());
    const news = screen.getByRole('switch', { name: 'Product news' });
    await news.click();
    await expect.element(screen.getByText('This list is not available.')).toBeVisible();
    await expect.element(news).toHaveAttribute('aria-checked', 'false');
    await expect.element(news).toBeEnabled();
  });

  it('leaves every list only once the confirm is answered yes', async () => {
    const server = ownSubscriptions('account', [NEWS, OFFERS]);
    stubFetch(server.routes);
    const { screen } = await renderApp('/en/account/notifications', testUser());
    await expect
      .element(screen.getByRole('switch', { name: 'Product news' }))
      .toHaveAttribute('aria-checked', 'true');

    await screen.getByRole('button', { name: 'Unsubscribe from all' }).click();
    let dialog = screen.getByRole('dialog', { name: 'Unsubscribe from all lists?' });
    await expect.element(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'No' }).click();
    await expect.element(dialog).not.toBeInTheDocument();
    expect(server.posted).toEqual([]);

    await screen.getByRole('button', { name: 'Unsubscribe from all' }).click();
    dialog = screen.getByRole('dialog', { name: 'Unsubscribe from all lists?' });
    await dialog.getByRole('button', { name: 'Unsubscribe from all' }).click();
    await expect.element(dialog).not.toBeInTheDocument();
    await expect
      .element(screen.getByRole('switch', { name: 'Product news' }))
      .toHaveAttribute('aria-checked', 'false');
    await expect
      .element(screen.getByRole('switch', { name: 'Offers and discounts' }))
      .toHaveAttribute('aria-checked', 'false');
    await expect
      .element(screen.getByRole('status').filter({ hasText: 'Unsubscribed from all lists' }))
      .toBeInTheDocument();
    await expect
      .element(screen.getByRole('button', { name: 'Unsubscribe from all' }))
      .not.toBeInTheDocument();
    expect(server.posted).toEqual([{ path: server.at('unsubscribeAll'), body: null }]);
  });

  it('shows an error with retry when the lists cannot be loaded', async () => {
    const server = ownSubscriptions('account', [NEWS]);
    let fail = true;
    stubFetch({
      ...server.routes,
      [server.at('lists')]: () =>
        fail ? errorResponse(500, 'internal') : jsonResponse(200, page([NEWS, OFFERS])),
    });
    const { screen } = await renderApp('/en/account/notifications', testUser());
    await expect
      .element(screen.getByText('Something went wrong on our side. Please try again later.'))
      .toBeVisible();
    expect(screen.getByRole('switch').elements()).toHaveLength(0);

    fail = false;
    await screen.getByRole('button', { name: 'Try again' }).click();
    await expect
      .element(screen.getByRole('switch', { name: 'Product news' }))
      .toHaveAttribute('aria-checked', 'true');
  });
});
