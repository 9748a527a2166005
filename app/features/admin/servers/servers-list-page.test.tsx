import { afterEach, describe, expect, it, vi } from 'vitest';
import { serverEndpoints } from '#shared/contracts/admin/servers.ts';
import { emitFleetServers } from '../../../realtime/live-signals.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { adminServer, fleetCountry, listOf } from './fleet-test-data.ts';

// §2 /admin/servers/servers-list: a compact line per server, grouped by country, live.
const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });

const SERVERS = [
  adminServer({ server_id: 1, city: 'Frankfurt' }),
  adminServer({ server_id: 2, name: 'de-berlin-1', city: 'Berlin', status: 'maintenance' }),
  adminServer({
    server_id: 3,
    name: 'nl-amsterdam-1',
    country_code: 'NL',
    country_name: 'Netherlands',
    city: 'Amsterdam',
    load: 20,
  }),
];

afterEach(() => vi.unstubAllGlobals());

describe('servers by country', () => {
  it('groups the servers by country, each group linking to its page, and filters by status', async () => {
    const queries: URLSearchParams[] = [];
    stubFetch({
      [serverEndpoints.list.url]: (request) => {
        const query = new URL(request.url).searchParams;
        queries.push(query);
        const status = query.get('status');
        return jsonResponse(
          200,
          listOf(
            SERVERS.filter((server) => !status || server.status === status),
            100,
          ),
        );
      },
    });
    const { screen } = await renderApp('/en/admin/servers/servers-list', admin);
    const germany = screen.getByRole('region', { name: 'Germany' });
    await expect
      .element(germany.getByRole('link', { name: 'Germany' }))
      .toHaveAttribute('href', '/en/admin/servers/countries/DE');
    await expect.element(germany).toHaveTextContent('1 of 2 online');
    // Within a country by city: Berlin before Frankfurt.
    const lines = germany.getByTestId('server-line');
    await expect.element(lines.first()).toHaveTextContent('de-berlin-1');
    await expect
      .element(lines.first().getByTestId('server-status'))
      .toHaveTextContent('Maintenance');
    await expect.element(screen.getByRole('region', { name: 'Netherlands' })).toBeVisible();
    expect(queries.at(-1)?.get('sort')).toBe('country');
    expect(queries.at(-1)?.get('per_page')).toBe('100');

    await screen.getByLabelText('Status').selectOptions('Maintenance');
    await expect.poll(() => queries.at(-1)?.get('status')).toBe('maintenance');
    await expect
      .element(screen.getByRole('region', { name: 'Netherlands' }))
      .not.toBeInTheDocument();
  });

  it('filters by country and tag too, in the URL', async () => {
    const queries: URLSearchParams[] = [];
    stubFetch({
      [serverEndpoints.list.url]: (request) => {
        const query = new URL(request.url).searchParams;
        queries.push(query);
        const country = query.get('country_code');
        const tag = query.get('tag');
        return jsonResponse(
          200,
          listOf(
            SERVERS.filter(
              (server) =>
                (!country || server.country_code === country) &&
                (!tag || server.tags.includes(tag)),
            ),
            100,
          ),
        );
      },
      [serverEndpoints.countries.url]: () =>
        jsonResponse(
          200,
          listOf([fleetCountry(), fleetCountry({ country_code: 'NL', name: 'Netherlands' })], 100),
        ),
    });
    const { screen, router } = await renderApp('/en/admin/servers/servers-list', admin);
    await expect.element(screen.getByRole('region', { name: 'Germany' })).toBeVisible();
    await screen.getByLabelText('Country').selectOptions('Netherlands');
    await expect.poll(() => queries.at(-1)?.get('country_code')).toBe('NL');
    await expect.element(screen.getByRole('region', { name: 'Germany' })).not.toBeInTheDocument();
    await expect.element(screen.getByRole('region', { name: 'Netherlands' })).toBeVisible();
    await screen.getByLabelText('Tag').selectOptions('p2p');
    await expect.poll(() => queries.at(-1)?.get('tag')).toBe('p2p');
    expect(router.state.location.search).toContain('country_code=NL');
    expect(router.state.location.search).toContain('tag=p2p');
  });

  it('merges the fleet’s live states into the lines', async () => {
    stubFetch({ [serverEndpoints.list.url]: () => jsonResponse(200, listOf(SERVERS, 100)) });
    const { screen } = await renderApp('/en/admin/servers/servers-list', admin);
    const line = screen
      .getByRole('region', { name: 'Netherlands' })
      .getByTestId('server-line')
      .first();
    await expect
      .element(line.getByRole('meter', { name: 'Load of nl-amsterdam-1' }))
      .toHaveAttribute('aria-valuenow', '20');
    emitFleetServers([
      {
        server_id: 3,
        status: 'offline',
        load: 0,
        devices: 12,
        active_peers: 0,
        last_seen_at: new Date(Date.now() - 120_000).toISOString(),
      },
    ]);
    await expect.element(line.getByTestId('server-status')).toHaveTextContent('Offline');
    await expect.element(line.getByRole('meter')).toHaveAttribute('aria-valuenow', '0');
    await expect.element(line).toHaveTextContent('12 / 500');
    await expect.element(line).toHaveTextContent('2 minutes ago');
  });
});
