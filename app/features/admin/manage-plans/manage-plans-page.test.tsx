import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import {
  type AdminProduct,
  type AdminService,
  productEndpoints,
} from '#shared/contracts/admin/products.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { errorResponse, jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { adminProduct } from '../products/admin-product-test-data.ts';

// §2 manage plans over the real route table and guards, with the server stood in for at
// fetch: the order of plans by keyboard, buttons and drag, the flags, and the one save.
const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });

afterEach(() => vi.unstubAllGlobals());

const product = adminProduct;

const MONTH = product(1, { name: '1 month' });
const YEAR = product(2, {
  name: '1 year',
  amount: 7188,
  amount_old: 15_588,
  interval: 'year',
  as_monthly_rate: true,
  discounted_badge: true,
  as_most_selected: true,
  sort: 20,
});
const TWO_YEARS = product(3, {
  name: '2 years',
  amount: 10_776,
  interval: 'year',
  interval_count: 2,
  sort: 30,
});
const PLANS = [TWO_YEARS, MONTH, YEAR];

const service = (service_id: AdminService['service_id'], currencies: string[]): AdminService => ({
  service_id,
  gateway: 'sandbox',
  selling: true,
  products: 3,
  visible_products: 3,
  currencies,
});
const SERVICES = [service(1, ['EUR', 'USD']), service(2, ['USD']), service(6, [])];

function server(initial: AdminProduct[] = PLANS, extra: Parameters<typeof stubFetch>[0] = {}) {
  let items = initial;
  const seen = stubFetch({
    [productEndpoints.services.url]: () => jsonResponse(200, { items: SERVICES }),
    [productEndpoints.list.url]: (request) => {
      const query = new URL(request.url).searchParams;
      const found = items.filter(
        (item) =>
          (!query.has('service_id') || item.service_id === Number(query.get('service_id'))) &&
          item.currency === query.get('currency') &&
          (query.get('kind') === 'addons') === item.additional,
      );
      return jsonResponse(200, {
        items: found,
        controls: { page: 1, per_page: 100, total: found.length, last_page: 1 },
      });
    },
    [productEndpoints.massUpdate.url]: async (request) => {
      const { items: changes } = (await request.clone().json()) as {
        items: Partial<AdminProduct>[];
      };
      // Kept, so the list fetched again after the save shows it.
      items = items.map((item) => {
        const change = changes.find((candidate) => candidate.product_id === item.product_id);
        return change ? { ...item, ...change } : item;
      });
      const saved = items.filter((item) =>
        changes.some((change) => change.product_id === item.product_id),
      );
      return jsonResponse(200, { items: saved });
    },
    ...extra,
  });
  return seen;
}

const saves = (requests: Request[]) =>
  Promise.all(
    requests
      .filter((request) => request.url.endsWith(productEndpoints.massUpdate.url))
      .map((request) => request.clone().json()),
  );

const open = (tab: string) => renderApp(`/en/admin/order/manage-plans/${tab}`, admin);

type Screen = Awaited<ReturnType<typeof open>>['screen'];
const names = (screen: Screen) =>
  screen
    .getByRole('list', { name: /Order of Card \(Stripe\)/ })
    .getByTestId('plan-name')
    .elements()
    .map((element) => element.textContent);

describe('manage plans', () => {
  it('shows the plans by sort as the order page will, one currency at a time', async () => {
    const seen = server();
    const { screen } = await open('stripe');
    await expect
      .element(screen.getByRole('heading', { level: 1, name: 'Manage plans' }))
      .toBeVisible();
    await expect
      .element(
        screen
          .getByRole('navigation', { name: 'Plan lists' })
          .getByRole('link', { name: 'Stripe' }),
      )
      .toHaveAttribute('aria-current', 'page');
    const list = screen.getByRole('list', {
      name: 'Order of Card (Stripe) in USD on the order page',
    });
    await expect.element(list).toBeVisible();
    expect(names(screen)).toEqual(['1 month', '1 year', '2 years']);
    const year = screen.getByTestId('sortable-2');
    await expect.element(year).toHaveTextContent('Most popular');
    await expect.element(year).toHaveTextContent('Save 54%');
    await expect.element(year).toHaveTextContent('$5.99per month');
    await expect.element(year).toHaveTextContent('$155.88Billed $71.88 yearly');
    await expect.element(screen.getByLabelText('Currency')).toHaveValue('USD');
    const query = new URL(
      seen.find((request) => request.url.includes(productEndpoints.list.url))?.url ?? '',
    ).searchParams;
    expect(Object.fromEntries(query)).toMatchObject({
      service_id: '1',
      kind: 'plans',
      currency: 'USD',
      sort: 'sort',
      direction: 'asc',
      per_page: '100',
    });
    await expect.element(screen.getByText(/within about 30 seconds/)).toBeVisible();
    await expect.element(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('moves a plan with the keyboard, announces each move, and saves the new sorts', async () => {
    const seen = server();
    const { screen } = await open('stripe');
    const handle = screen.getByRole('button', { name: 'Move 2 years', exact: true });
    await expect.element(handle).toBeVisible();
    handle.element().focus();
    await userEvent.keyboard(' ');
    const announcer = screen.getByTestId('plans-announcer');
    await expect.element(announcer).toHaveTextContent('2 years picked up, position 3 of 3.');
    await expect.element(handle).toHaveAttribute('aria-pressed', 'true');
    await userEvent.keyboard('{ArrowUp}');
    await expect.element(announcer).toHaveTextContent('2 years moved to position 2 of 3.');
    await expect.element(handle).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}');
    await userEvent.keyboard(' ');
    await expect.element(announcer).toHaveTextContent('2 years dropped at position 1 of 3.');
    expect(names(screen)).toEqual(['2 years', '1 month', '1 year']);
    await expect.element(screen.getByText('Unsaved changes')).toBeVisible();

    await screen.getByRole('button', { name: 'Save' }).click();
    await expect.element(screen.getByText('Plans saved')).toBeVisible();
    expect(await saves(seen)).toEqual([
      {
        items: [
          { product_id: 3, sort: 10 },
          { product_id: 1, sort: 20 },
          { product_id: 2, sort: 30 },
        ],
      },
    ]);
    await expect.element(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(names(screen)).toEqual(['2 years', '1 month', '1 year']);
  });

  it('puts a picked plan back where it was on Escape', async () => {
    server();
    const { screen } = await open('stripe');
    const handle = screen.getByRole('button', { name: 'Move 1 month', exact: true });
    await expect.element(handle).toBeVisible();
    handle.element().focus();
    await userEvent.keyboard(' ');
    await userEvent.keyboard('{End}');
    expect(names(screen)).toEqual(['1 year', '2 years', '1 month']);
    await userEvent.keyboard('{Escape}');
    expect(names(screen)).toEqual(['1 month', '1 year', '2 years']);
    await expect
      .element(screen.getByTestId('plans-announcer'))
      .toHaveTextContent('Move canceled. 1 month is back at position 1 of 3.');
    await expect.element(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('moves with the up and down buttons, keeping focus on the plan moved', async () => {
    server();
    const { screen } = await open('stripe');
    const down = screen.getByRole('button', { name: 'Move 1 month down' });
    await down.click();
    expect(names(screen)).toEqual(['1 year', '1 month', '2 years']);
    await expect.element(down).toHaveFocus();
    await down.click();
    expect(names(screen)).toEqual(['1 year', '2 years', '1 month']);
    // At the bottom the button is off: focus goes to the plan's handle.
    await expect.element(down).toBeDisabled();
    await expect
      .element(screen.getByRole('button', { name: 'Move 1 month', exact: true }))
      .toHaveFocus();
    await screen.getByRole('button', { name: 'Discard changes' }).click();
    expect(names(screen)).toEqual(['1 month', '1 year', '2 years']);
  });

  it('moves a plan by dragging its handle', async () => {
    const seen = server();
    const { screen } = await open('stripe');
    const handle = screen.getByRole('button', { name: 'Move 2 years', exact: true });
    await expect.element(handle).toBeVisible();
    // Onto the top of the first row. Forced: the rows move under the pointer as it goes,
    // which Playwright's own check of what is under the pointer would otherwise wait out.
    await userEvent.dragAndDrop(handle, screen.getByTestId('sortable-1'), {
      force: true,
      targetPosition: { x: 20, y: 4 },
    });
    await expect.poll(() => names(screen)).toEqual(['2 years', '1 month', '1 year']);
    await expect
      .element(screen.getByTestId('plans-announcer'))
      .toHaveTextContent('2 years dropped at position 1 of 3.');
    await screen.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => saves(seen)).toHaveLength(1);
    expect((await saves(seen))[0].items.map((item: { sort: number }) => item.sort)).toEqual([
      10, 20, 30,
    ]);
  });

  it('keeps one most selected plan per service and currency', async () => {
    const seen = server();
    const { screen } = await open('stripe');
    const radio = (id: number) =>
      screen.getByTestId(`sortable-${id}`).getByRole('radio', { name: 'Most selected' });
    await expect.element(radio(2)).toBeChecked();
    await radio(3).click();
    await expect.element(radio(3)).toBeChecked();
    await expect.element(radio(2)).not.toBeChecked();
    await expect.element(screen.getByTestId('sortable-3')).toHaveTextContent('Most popular');
    await expect.element(screen.getByTestId('sortable-2')).not.toHaveTextContent('Most popular');
    await screen.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => saves(seen)).toHaveLength(1);
    expect((await saves(seen))[0]).toEqual({
      items: [
        { product_id: 2, as_most_selected: false },
        { product_id: 3, as_most_selected: true },
      ],
    });
    await screen.getByRole('radio', { name: 'No plan marked most selected' }).click();
    await expect.element(radio(3)).not.toBeChecked();
  });

  it('needs an old price above the price for the badge, and sends it in minor units', async () => {
    const seen = server();
    const { screen } = await open('stripe');
    const row = screen.getByTestId('sortable-1');
    await row.getByRole('checkbox', { name: 'Show discounted badge' }).click();
    await row.getByRole('checkbox', { name: 'Show monthly rate' }).click();
    await screen.getByRole('button', { name: 'Save' }).click();
    const old = row.getByLabelText('Old price (USD)');
    await expect
      .element(old)
      .toHaveAccessibleDescription('A discounted badge needs an old price above the price.');
    await expect.element(old).toHaveFocus();
    expect(await saves(seen)).toEqual([]);
    await old.fill('25.98');
    await expect.element(row).toHaveTextContent('Save 50%');
    await screen.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => saves(seen)).toHaveLength(1);
    expect((await saves(seen))[0]).toEqual({
      items: [{ product_id: 1, as_monthly_rate: true, discounted_badge: true, amount_old: 2598 }],
    });
  });

  it('asks before leaving with unsaved changes', async () => {
    server();
    const { screen, router } = await open('stripe');
    await screen.getByRole('button', { name: 'Move 1 month down' }).click();
    await screen.getByRole('link', { name: 'PayPal', exact: true }).click();
    const dialog = screen.getByRole('dialog', { name: 'Leave without saving?' });
    await expect.element(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Stay' }).click();
    expect(router.state.location.pathname).toBe('/en/admin/order/manage-plans/stripe');
    expect(names(screen)).toEqual(['1 year', '1 month', '2 years']);
    await screen.getByLabelText('Currency').selectOptions('EUR');
    await screen.getByRole('dialog').getByRole('button', { name: 'Leave' }).click();
    await expect.poll(() => router.state.location.search).toBe('?currency=EUR');
    await expect.element(screen.getByText('No plans in EUR')).toBeVisible();
  });

  it('lists the add-ons of every service, grouped by service', async () => {
    server([
      ...PLANS,
      product(11, { name: 'Dedicated IP (1 month)', additional: true }),
      product(12, { name: 'Dedicated IP (1 year)', additional: true, sort: 5 }),
      product(21, { name: 'PayPal IP', additional: true, service_id: 2 }),
    ]);
    const { screen } = await open('addons');
    const card = screen.getByRole('list', {
      name: 'Order of Card (Stripe) in USD on the order page',
    });
    await expect.element(card).toBeVisible();
    expect(
      card
        .getByTestId('plan-name')
        .elements()
        .map((element) => element.textContent),
    ).toEqual(['Dedicated IP (1 year)', 'Dedicated IP (1 month)']);
    await expect
      .element(screen.getByRole('list', { name: 'Order of PayPal in USD on the order page' }))
      .toHaveTextContent('PayPal IP');
    // Add-ons are never the most selected plan.
    expect(screen.getByRole('radio').elements()).toHaveLength(0);
  });

  it('lists the bundles with the add-ons they include', async () => {
    server([...PLANS, product(4, { name: 'Bundle', includable_product_id: [50] })], {
      [productEndpoints.includable.url]: () =>
        jsonResponse(200, { items: [product(50, { name: 'Ad blocker', includable: true })] }),
    });
    const { screen } = await open('merged-addons');
    const list = screen.getByRole('list', { name: /Order of Card \(Stripe\)/ });
    await expect.element(list).toHaveTextContent('Includes Ad blocker');
    expect(
      list
        .getByTestId('plan-name')
        .elements()
        .map((element) => element.textContent),
    ).toEqual(['Bundle']);
  });

  it('says so when nothing is sold, and offers to try again when loading fails', async () => {
    server();
    const { screen } = await open('cryptomus');
    await expect.element(screen.getByText('Nothing is sold here yet')).toBeVisible();
    vi.unstubAllGlobals();
    stubFetch({
      [productEndpoints.services.url]: () => errorResponse(503, 'unavailable'),
    });
    const second = await open('paypal');
    await expect
      .element(second.screen.getByText('This could not be loaded'), { timeout: 10_000 })
      .toBeVisible();
    await expect.element(second.screen.getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});
