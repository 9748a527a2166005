import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AdminServer, serverEndpoints } from '#shared/contracts/admin/servers.ts';
import { FLEET_STAFF_CHANNEL } from '#shared/contracts/realtime.ts';
import { emitFleetServers, wantedChannels } from '../../../realtime/live-signals.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { adminServer, fleetCountry, listOf } from './fleet-test-data.ts';

// §2 /admin/servers/all-servers: the whole fleet in one table, filtered, sorted and paged on
// the server with the state in the URL, and live: the staff channel's states merge in.
const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });

function fleet(servers: AdminServer[]) {
  const queries: URLSearchParams[] = [];
  stubFetch({
    [serverEndpoints.list.url]: (request) => {
      const query = new URL(request.url).searchParams;
      queries.push(query);
      const status = query.get('status');
      const tag = query.get('tag');
      return jsonResponse(
        200,
        listOf(
          servers.filter(
            (server) =>
              (!status || server.status === status) && (!tag || server.tags.includes(tag)),
          ),
        ),
      );
    },
    [serverEndpoints.countries.url]: () =>
      jsonResponse(
        200,
        listOf([fleetCountry(), fleetCountry({ country_code: 'NL', name: 'Netherlands' })], 100),
      ),
  });
  return queries;
}

afterEach(() => vi.unstubAllGlobals());

describe('all servers', () => {
  it('shows each server’s place, endpoint, status in words, load, devices and last contact', async () => {
    fleet([
      adminServer({ server_id: 1, load: 47, devices: 12, capacity: 500 }),
      adminServer({
        server_id: 2,
        name: 'nl-amsterdam-1',
        country_code: 'NL',
        country_name: 'Netherlands',
        city: 'Amsterdam',
        status: 'maintenance',
        load: 91,
        tags: [],
        last_seen_at: null,
      }),
    ]);
    const { screen } = await renderApp('/en/admin/servers/all-servers', admin);
    const table = screen.getByRole('table', { name: 'All servers' });
    const first = table.getByRole('row').filter({ hasText: 'de-frankfurt-1' });
    await expect.element(first).toHaveTextContent(/Germany\s*Frankfurt/);
    await expect.element(first).toHaveTextContent('de-frankfurt-1.vpn.test:51820');
    await expect.element(first.getByTestId('server-status')).toHaveTextContent('Online');
    const meter = first.getByRole('meter', { name: 'Load of de-frankfurt-1' });
    await expect.element(meter).toHaveAttribute('aria-valuetext', '47%');
    await expect.element(meter).toHaveAttribute('aria-valuenow', '47');
    await expect.element(first).toHaveTextContent('47%');
    await expect.element(first).toHaveTextContent('12 / 500');
    await expect.element(first.getByText(/seconds? ago/)).toHaveAttribute('title');
    await expect.element(first).toHaveTextContent('streaming');
    const second = table.getByRole('row').filter({ hasText: 'nl-amsterdam-1' });
    await expect.element(second.getByTestId('server-status')).toHaveTextContent('Maintenance');
    await expect.element(second).toHaveTextContent('Never');
    await expect
      .element(second.getByRole('link', { name: 'Netherlands' }))
      .toHaveAttribute('href', '/en/admin/servers/countries/NL');
  });

  it('filters by country, status and tag and sorts by load, all on the server and in the URL', async () => {
    const queries = fleet([
      adminServer({ server_id: 1, status: 'online', tags: ['p2p'] }),
      adminServer({ server_id: 2, status: 'offline', tags: ['streaming'] }),
    ]);
    const { screen, router } = await renderApp('/en/admin/servers/all-servers', admin);
    await expect.element(screen.getByRole('button', { name: 'de-frankfurt-2' })).toBeVisible();
    await screen.getByLabelText('Status').selectOptions('Offline');
    await expect.poll(() => queries.at(-1)?.get('status')).toBe('offline');
    await expect
      .element(screen.getByRole('button', { name: 'de-frankfurt-1' }))
      .not.toBeInTheDocument();
    await screen.getByLabelText('Tag').selectOptions('streaming');
    await expect.poll(() => queries.at(-1)?.get('tag')).toBe('streaming');
    await expect.element(screen.getByLabelText('Country')).toHaveTextContent(/Netherlands/);
    await screen.getByLabelText('Country').selectOptions('Germany');
    await expect.poll(() => queries.at(-1)?.get('country_code')).toBe('DE');
    await screen.getByRole('columnheader', { name: /Load/ }).getByRole('button').click();
    await expect.poll(() => queries.at(-1)?.get('sort')).toBe('load');
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      status: 'offline',
      tag: 'streaming',
      country_code: 'DE',
      sort: 'load',
      direction: 'asc',
    });
  });

  it('joins the fleet’s channel while open and merges each server’s new state without a reload', async () => {
    const queries = fleet([
      adminServer({ server_id: 1, status: 'new', load: 0, devices: 0, last_seen_at: null }),
      adminServer({ server_id: 2, load: 30 }),
    ]);
    const { screen, router } = await renderApp('/en/admin/servers/all-servers', admin);
    const row = screen.getByRole('row').filter({ hasText: 'de-frankfurt-1.vpn.test' });
    await expect.element(row.getByTestId('server-status')).toHaveTextContent('New');
    expect(wantedChannels()).toContain(FLEET_STAFF_CHANNEL);
    const fetched = queries.length;

    emitFleetServers([
      {
        server_id: 1,
        status: 'online',
        load: 64,
        devices: 3,
        active_peers: 2,
        last_seen_at: new Date().toISOString(),
      },
    ]);
    await expect.element(row.getByTestId('server-status')).toHaveTextContent('Online');
    await expect.element(row.getByRole('meter')).toHaveAttribute('aria-valuenow', '64');
    await expect.element(row).toHaveTextContent('64%');
    await expect.element(row).toHaveTextContent('3 / 500');
    await expect.element(row).not.toHaveTextContent('Never');
    // The other server is as it was, and nothing was fetched again.
    const other = screen.getByRole('row').filter({ hasText: 'de-frankfurt-2.vpn.test' });
    await expect.element(other.getByRole('meter')).toHaveAttribute('aria-valuenow', '30');
    expect(queries.length).toBe(fetched);

    // Leaving the screen leaves the channel.
    await router.navigate('/en/admin/customers');
    await expect.poll(() => wantedChannels()).not.toContain(FLEET_STAFF_CHANNEL);
  });
});
