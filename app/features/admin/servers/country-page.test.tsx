import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FleetCountryResponse, serverEndpoints } from '#shared/contracts/admin/servers.ts';
import { emitFleetServers } from '../../../realtime/live-signals.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { errorResponse, jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { adminServer, fleetCity, fleetCountry, listOf } from './fleet-test-data.ts';

// §2 /admin/servers/countries/{country_code}: the country's place in the customers' list,
// its cities with their servers (live), and "add a server here".
const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });

const GERMANY: FleetCountryResponse = {
  country: fleetCountry({ servers: 3, online: 2, cities: 2, sort: 4 }),
  cities: [
    {
      ...fleetCity(),
      items: [
        adminServer({ server_id: 1, load: 47 }),
        adminServer({ server_id: 2, status: 'offline', load: 0, devices: 0 }),
      ],
    },
    {
      ...fleetCity({ city_id: 11, name: 'Berlin', servers: 1 }),
      items: [adminServer({ server_id: 3, name: 'de-berlin-1', city_id: 11, city: 'Berlin' })],
    },
    { ...fleetCity({ city_id: 12, name: 'Munich', servers: 0 }), items: [] },
  ],
};

afterEach(() => vi.unstubAllGlobals());

describe('fleet country', () => {
  it('shows the country’s settings and each city with its servers, live', async () => {
    const asked: URLSearchParams[] = [];
    stubFetch({
      [serverEndpoints.country.url]: (request) => {
        asked.push(new URL(request.url).searchParams);
        return jsonResponse(200, GERMANY);
      },
      [serverEndpoints.countries.url]: () => jsonResponse(200, listOf([GERMANY.country], 100)),
      [serverEndpoints.cities.url]: () => jsonResponse(200, { items: [fleetCity()] }),
    });
    const { screen } = await renderApp('/en/admin/servers/countries/de', admin);
    await expect.element(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Germany');
    expect(asked[0]?.get('country_code')).toBe('DE');
    const settings = screen.getByRole('region', { name: "In the customers' list" });
    await expect
      .element(settings.getByRole('switch', { name: 'Show Germany to customers' }))
      .toHaveAttribute('aria-checked', 'true');
    await expect.element(settings.getByLabelText('Order')).toHaveValue(4);
    await expect.element(settings.getByTestId('country-online')).toHaveTextContent('2 of 3');

    const frankfurt = screen.getByRole('table', { name: 'Servers in Frankfurt' });
    await expect.element(frankfurt.getByRole('row')).toHaveLength(3);
    const offline = frankfurt.getByRole('row').filter({ hasText: 'de-frankfurt-2' });
    await expect.element(offline.getByTestId('server-status')).toHaveTextContent('Offline');
    await expect
      .element(screen.getByRole('table', { name: 'Servers in Berlin' }))
      .toHaveTextContent('de-berlin-1');
    await expect.element(screen.getByText('No servers in this city now.')).toBeVisible();

    emitFleetServers([
      {
        server_id: 2,
        status: 'online',
        load: 12,
        devices: 4,
        active_peers: 4,
        last_seen_at: new Date().toISOString(),
      },
    ]);
    await expect.element(offline.getByTestId('server-status')).toHaveTextContent('Online');
    await expect.element(offline.getByRole('meter')).toHaveAttribute('aria-valuenow', '12');
    // The count of those online follows.
    await expect.element(settings.getByTestId('country-online')).toHaveTextContent('3 of 3');

    await screen.getByRole('button', { name: 'Add a server here' }).click();
    const dialog = screen.getByRole('dialog', { name: 'New server' });
    await expect.element(dialog.getByLabelText('Country')).toHaveValue('DE');
  });

  it('says so when the country is unknown', async () => {
    stubFetch({ [serverEndpoints.country.url]: () => errorResponse(404, 'not_found') });
    const { screen } = await renderApp('/en/admin/servers/countries/zz', admin);
    await expect.element(screen.getByText('This could not be loaded')).toBeVisible();
  });
});
