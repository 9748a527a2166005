import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { type FleetCountry, serverEndpoints } from '#shared/contracts/admin/servers.ts';
import { FLEET_STAFF_CHANNEL } from '#shared/contracts/realtime.ts';
import { wantedChannels } from '../../../realtime/live-signals.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { fleetCountry, listOf } from './fleet-test-data.ts';

// §2 /admin/servers/countries: the fleet's countries with their counts; staff show or hide
// each from customers and set its place; every country on demand, to add a first server.
const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });

function countries(initial: FleetCountry[], everyOther: FleetCountry[] = []) {
  let rows = initial;
  const queries: URLSearchParams[] = [];
  const updates: Record<string, unknown>[] = [];
  stubFetch({
    [serverEndpoints.countries.url]: (request) => {
      const query = new URL(request.url).searchParams;
      queries.push(query);
      const all = query.get('scope') === 'all' ? [...rows, ...everyOther] : rows;
      const search = query.get('search')?.toLowerCase() ?? '';
      return jsonResponse(
        200,
        listOf(all.filter((row) => row.name.toLowerCase().includes(search))),
      );
    },
    [serverEndpoints.updateCountry.url]: async (request) => {
      const body = (await request.json()) as {
        country_code: string;
        visible: boolean;
        sort: number;
      };
      updates.push(body);
      rows = rows.map((row) =>
        row.country_code === body.country_code
          ? { ...row, visible: body.visible, sort: body.sort }
          : row,
      );
      const country = rows.find((row) => row.country_code === body.country_code);
      // The answer names the country in English, whatever the page's language.
      return jsonResponse(200, { country });
    },
    [serverEndpoints.cities.url]: () => jsonResponse(200, { items: [] }),
  });
  return { queries, updates };
}

const GERMANY = fleetCountry({ servers: 4, online: 3, cities: 3 });
const NETHERLANDS = fleetCountry({
  country_code: 'NL',
  name: 'Netherlands',
  servers: 2,
  online: 2,
  cities: 1,
  visible: false,
  sort: 5,
});

afterEach(() => vi.unstubAllGlobals());

describe('fleet countries', () => {
  it('lists each country with its servers, those online and its cities, linking to its page', async () => {
    const { queries } = countries([GERMANY, NETHERLANDS]);
    const { screen } = await renderApp('/en/admin/servers/countries', admin);
    const germany = screen.getByRole('row').filter({ hasText: 'Germany' });
    await expect
      .element(germany.getByRole('link', { name: 'Germany' }))
      .toHaveAttribute('href', '/en/admin/servers/countries/DE');
    await expect.element(germany).toHaveTextContent(/Germany\s*4\s*3 of 4\s*3/);
    await expect
      .element(germany.getByRole('switch', { name: 'Show Germany to customers' }))
      .toHaveAttribute('aria-checked', 'true');
    await expect
      .element(screen.getByRole('switch', { name: 'Show Netherlands to customers' }))
      .toHaveAttribute('aria-checked', 'false');
    await expect.element(screen.getByLabelText('Order of Netherlands')).toHaveValue(5);
    expect(queries.at(-1)?.get('scope')).toBe('with_servers');
    expect(queries.at(-1)?.get('lang')).toBe('en');
    expect(wantedChannels()).toContain(FLEET_STAFF_CHANNEL);
  });

  it('hides and shows a country from the keyboard, and saves its place on Enter', async () => {
    const { updates } = countries([GERMANY, NETHERLANDS]);
    const { screen } = await renderApp('/en/admin/servers/countries', admin);
    const toggle = screen.getByRole('switch', { name: 'Show Germany to customers' });
    await expect.element(toggle).toHaveAttribute('aria-checked', 'true');
    toggle.element().focus();
    await userEvent.keyboard(' ');
    await expect.element(toggle).toHaveAttribute('aria-checked', 'false');
    await expect.element(screen.getByText('Germany is hidden from customers.')).toBeVisible();
    await userEvent.keyboard('{Enter}');
    await expect.element(toggle).toHaveAttribute('aria-checked', 'true');

    const order = screen.getByLabelText('Order of Germany');
    await order.fill('-3');
    await userEvent.keyboard('{Enter}');
    await expect.element(screen.getByText('Germany moved to -3.')).toBeVisible();
    expect(updates).toEqual([
      { country_code: 'DE', visible: false, sort: 0, lang: 'en' },
      { country_code: 'DE', visible: true, sort: 0, lang: 'en' },
      { country_code: 'DE', visible: true, sort: -3, lang: 'en' },
    ]);
  });

  it('shows every country on demand, and adds a first server to one of them', async () => {
    const { queries } = countries(
      [GERMANY],
      [fleetCountry({ country_code: 'FI', name: 'Finland', servers: 0, online: 0, cities: 0 })],
    );
    const { screen, router } = await renderApp('/en/admin/servers/countries', admin);
    await expect.element(screen.getByRole('link', { name: 'Germany' })).toBeVisible();
    await expect.element(screen.getByRole('link', { name: 'Finland' })).not.toBeInTheDocument();
    await screen
      .getByRole('switch', { name: 'Show every country (to add a first server)' })
      .click();
    await expect.poll(() => queries.at(-1)?.get('scope')).toBe('all');
    expect(router.state.location.search).toBe('?scope=all');
    await screen.getByRole('button', { name: 'Add a server in Finland' }).click();
    const dialog = screen.getByRole('dialog', { name: 'New server' });
    await expect.element(dialog.getByLabelText('Country')).toHaveValue('FI');
  });

  it('searches the countries by name', async () => {
    const { queries } = countries([GERMANY, NETHERLANDS]);
    const { screen } = await renderApp('/en/admin/servers/countries', admin);
    await screen.getByLabelText('Search by country name or code').fill('nether');
    await expect.poll(() => queries.at(-1)?.get('search')).toBe('nether');
    await expect.element(screen.getByRole('link', { name: 'Germany' })).not.toBeInTheDocument();
    await expect.element(screen.getByRole('link', { name: 'Netherlands' })).toBeVisible();
  });
});
