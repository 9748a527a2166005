import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { type CustomerSummary, customerEndpoints } from '#shared/contracts/admin/customers.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { errorResponse, jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';

// The admin kit's list page, as the customers screen uses it, behind the real guards.
const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });

const customer = (id: number, overrides: Partial<CustomerSummary> = {}): CustomerSummary => ({
  id,
  name: `Person ${id}`,
  username: `person${id}`,
  email: `person${id}@example.com`,
  role: 'USER',
  activated: true,
  blocked: false,
  delete_at: null,
  created_at: '2026-11-01T10:00:00.000Z',
  ...overrides,
});

/** Answers the list from `rows`, 2 a page, and records each query it was asked. */
function listServer(rows: CustomerSummary[]) {
  const queries: URLSearchParams[] = [];
  stubFetch({
    [customerEndpoints.list.url]: (request) => {
      const query = new URL(request.url).searchParams;
      queries.push(query);
      const page = Number(query.get('page') ?? '1');
      const perPage = 2;
      const search = query.get('search') ?? '';
      const found = rows.filter((row) => row.email.includes(search));
      return jsonResponse(200, {
        items: found.slice((page - 1) * perPage, page * perPage),
        controls: {
          page,
          per_page: perPage,
          total: found.length,
          last_page: Math.max(1, Math.ceil(found.length / perPage)),
        },
      });
    },
  });
  return queries;
}

afterEach(() => vi.unstubAllGlobals());

describe('admin list page', () => {
  it('shows the rows with a link each, and pages with the controls', async () => {
    const queries = listServer([customer(1), customer(2), customer(3)]);
    const { screen, router } = await renderApp('/en/admin/customers', admin);
    const table = screen.getByRole('table', { name: 'Customers' });
    await expect.element(table.getByRole('link', { name: 'person1@example.com' })).toBeVisible();
    await expect
      .element(screen.getByRole('navigation', { name: 'Pages' }))
      .toHaveTextContent('Page 1 of 2 · 3 in all');
    await screen.getByRole('button', { name: 'Next' }).click();
    await expect.element(table.getByRole('link', { name: 'person3@example.com' })).toBeVisible();
    expect(router.state.location.search).toBe('?page=2');
    expect(queries.at(-1)?.get('page')).toBe('2');
    await expect.element(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('searches, filters and sorts on the server, keeping it all in the URL', async () => {
    const queries = listServer([customer(1), customer(2), customer(3)]);
    const { screen, router } = await renderApp('/en/admin/customers?page=2', admin);
    await expect.element(screen.getByRole('table')).toBeVisible();
    await screen.getByLabelText('Search by e-mail, name or username').fill('person2');
    await expect.poll(() => queries.at(-1)?.get('search')).toBe('person2');
    // A new search starts again from the first page.
    expect(new URLSearchParams(router.state.location.search).get('page')).toBeNull();
    expect(queries.at(-1)?.get('page')).toBe('1');

    await screen.getByLabelText('Blocked').selectOptions('Yes');
    await expect.poll(() => queries.at(-1)?.get('blocked')).toBe('true');

    const header = screen.getByRole('columnheader', { name: /E-mail/ });
    await header.getByRole('button').click();
    await expect.element(header).toHaveAttribute('aria-sort', 'ascending');
    await expect.poll(() => queries.at(-1)?.get('direction')).toBe('asc');
    // The sort button is reachable and usable from the keyboard.
    header.getByRole('button').element().focus();
    await userEvent.keyboard('{Enter}');
    await expect.element(header).toHaveAttribute('aria-sort', 'descending');
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      search: 'person2',
      blocked: 'true',
      sort: 'email',
      direction: 'desc',
    });
  });

  it('says so when there is nothing', async () => {
    listServer([]);
    const { screen } = await renderApp('/en/admin/customers', admin);
    await expect.element(screen.getByText('No customers yet')).toBeVisible();
  });

  it('says so when nothing matches the search or filters', async () => {
    listServer([]);
    const { screen } = await renderApp('/en/admin/customers?blocked=true', admin);
    await expect.element(screen.getByText('Nothing matches')).toBeVisible();
  });

  it('shows a failure with a way to try again', async () => {
    let fail = true;
    stubFetch({
      [customerEndpoints.list.url]: () =>
        fail
          ? errorResponse(503, 'unavailable')
          : jsonResponse(200, {
              items: [customer(5)],
              controls: { page: 1, per_page: 20, total: 1, last_page: 1 },
            }),
    });
    const { screen } = await renderApp('/en/admin/customers', admin);
    // The query retries once on its own before it shows the failure.
    await expect
      .element(screen.getByText('This could not be loaded'), { timeout: 10_000 })
      .toBeVisible();
    fail = false;
    await screen.getByRole('button', { name: 'Try again' }).click();
    await expect.element(screen.getByRole('link', { name: 'person5@example.com' })).toBeVisible();
  });
});
