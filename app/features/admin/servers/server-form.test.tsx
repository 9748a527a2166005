import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import {
  type AdminServerDetail,
  SERVER_MESSAGES,
  serverEndpoints,
} from '#shared/contracts/admin/servers.ts';
import { emitFleetServers } from '../../../realtime/live-signals.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { adminServer, fleetCity, fleetCountry, listOf, serverDetail } from './fleet-test-data.ts';

// Adding and changing a server with the one form behind both: the shared schema's and the
// server's messages under their fields, then the enrollment token shown this once with the
// command that starts the node, and the node enrolling live.
const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });
const TOKEN = 'vpnnode_Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5';

function fleet(extra: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    [serverEndpoints.list.url]: () => jsonResponse(200, listOf([adminServer({ server_id: 1 })])),
    [serverEndpoints.countries.url]: () =>
      jsonResponse(
        200,
        listOf(
          [
            fleetCountry(),
            fleetCountry({ country_code: 'FI', name: 'Finland', servers: 0, online: 0 }),
          ],
          100,
        ),
      ),
    [serverEndpoints.cities.url]: (request) =>
      jsonResponse(200, {
        items:
          new URL(request.url).searchParams.get('country_code') === 'DE'
            ? [fleetCity(), fleetCity({ city_id: 11, name: 'Berlin' })]
            : [],
      }),
    ...extra,
  });
}

async function openCreate() {
  const { screen } = await renderApp('/en/admin/servers/all-servers', admin);
  await screen.getByRole('button', { name: 'Add server' }).click();
  const dialog = screen.getByRole('dialog', { name: 'New server' });
  await expect.element(dialog).toBeVisible();
  return { screen, dialog };
}

async function fillNew(dialog: Awaited<ReturnType<typeof openCreate>>['dialog']) {
  await dialog.getByLabelText('Name').fill('de-frankfurt-9');
  await dialog.getByLabelText('Country').selectOptions('Germany');
  await dialog.getByLabelText('City', { exact: true }).fill('frankfurt');
  await dialog.getByLabelText('Endpoint host').fill('de9.vpn.test');
  await dialog.getByLabelText('DNS servers').fill('1.1.1.1, 9.9.9.9');
  await dialog.getByRole('button', { name: 'Add the tag p2p' }).click();
}

afterEach(() => vi.unstubAllGlobals());

describe('server form', () => {
  it('checks the fields before sending, and shows the server’s refusals under their fields', async () => {
    const sent: Record<string, unknown>[] = [];
    fleet({
      [serverEndpoints.create.url]: async (request) => {
        sent.push((await request.json()) as Record<string, unknown>);
        return jsonResponse(422, {
          code: 'validation_failed',
          errors_validation: {
            name: [SERVER_MESSAGES.nameTaken],
            'dns.1': [SERVER_MESSAGES.dnsInvalid],
          },
          errors_info: [],
        });
      },
    });
    const { dialog } = await openCreate();
    await dialog.getByRole('button', { name: 'Add server' }).click();
    await expect
      .element(dialog.getByLabelText('Name'))
      .toHaveAccessibleDescription('This field is required.');
    await expect.element(dialog.getByLabelText('Name')).toHaveFocus();
    await expect
      .element(dialog.getByLabelText('Country'))
      .toHaveAccessibleDescription('Choose a country.');
    expect(sent).toEqual([]);

    await fillNew(dialog);
    await dialog.getByLabelText('Endpoint port').fill('70000');
    await dialog.getByRole('button', { name: 'Add server' }).click();
    await expect
      .element(dialog.getByLabelText('Endpoint port'))
      .toHaveAccessibleDescription('Enter a port from 1 to 65535.');
    expect(sent).toEqual([]);

    await dialog.getByLabelText('Endpoint port').fill('51820');
    await dialog.getByRole('button', { name: 'Add server' }).click();
    await expect
      .element(dialog.getByLabelText('Name'))
      .toHaveAccessibleDescription('Another server has this name.');
    await expect
      .element(dialog.getByLabelText('DNS servers'))
      .toHaveAccessibleDescription('Enter IPv4 or IPv6 addresses of DNS resolvers.');
    await expect.element(dialog.getByLabelText('Name')).toHaveValue('de-frankfurt-9');
    // A known city goes by its id; lists and numbers as the contract has them.
    expect(sent).toEqual([
      {
        name: 'de-frankfurt-9',
        country_code: 'DE',
        city: 'frankfurt',
        city_id: 10,
        endpoint_host: 'de9.vpn.test',
        endpoint_port: 51820,
        listen_port: null,
        ipv4_pool: '10.8.0.0/16',
        ipv6_pool: 'fd42:42:42::/64',
        dns: ['1.1.1.1', '9.9.9.9'],
        capacity: 250,
        tags: ['p2p'],
      },
    ]);
  });

  it('shows the token once, with the command that starts the node, and the node enrolling live', async () => {
    let created: AdminServerDetail = serverDetail({
      server_id: 77,
      name: 'de-frankfurt-9',
      status: 'new',
      load: 0,
      devices: 0,
      public_key: null,
      agent_version: null,
      enrolled_at: null,
      last_seen_at: null,
      node_api_url: 'https://vpn.example.com',
    });
    const views: number[] = [];
    fleet({
      [serverEndpoints.create.url]: () =>
        jsonResponse(201, { server: created, enrollment_token: TOKEN }),
      [serverEndpoints.view.url]: () => {
        views.push(Date.now());
        return jsonResponse(200, { server: created });
      },
    });
    const { screen, dialog: form } = await openCreate();
    await fillNew(form);
    await form.getByRole('button', { name: 'Add server' }).click();

    const dialog = screen.getByRole('dialog', { name: 'Start the node of de-frankfurt-9' });
    await expect.element(dialog.getByTestId('token-warning')).toHaveTextContent('Shown only once');
    const token = dialog.getByLabelText('Enrollment token');
    await expect.element(token).toHaveValue(TOKEN);
    await expect.element(token).toHaveAttribute('readonly');
    await expect
      .element(dialog.getByLabelText('Start the node'))
      .toHaveValue(
        `VPN_NODE_API_URL=https://vpn.example.com VPN_NODE_TOKEN=${TOKEN} VPN_NODE_INTERFACE=wg0 VPN_NODE_STATE_DIR=/var/lib/vpn-node npm run vpn-node`,
      );
    await expect
      .element(dialog.getByLabelText('Set up the interface (as root, once)'))
      .toHaveValue(
        'ip link add wg0 type wireguard\nip address add 10.8.0.1/16 dev wg0\nip address add fd42:42:42::1/64 dev wg0\nip link set wg0 up',
      );
    await dialog.getByRole('button', { name: 'Copy token' }).click();
    await expect.element(dialog.getByText(/^(Copied\.|Selected: )/)).toBeVisible();
    await expect
      .element(dialog.getByTestId('enroll-state'))
      .toHaveTextContent('Waiting for the node');

    // It does not close by accident: Escape leaves it open.
    await userEvent.keyboard('{Escape}');
    await expect.element(dialog).toBeVisible();

    // The node enrolls: the channel says so, and the key comes with the detail fetched anew.
    created = {
      ...created,
      status: 'online',
      public_key: 'q0DJ2pK7l9d8X1dmPmVx5zAQJuX8H3b0Ch6u2V6aZ1k=',
      agent_version: 'e2e',
      enrolled_at: new Date().toISOString(),
      last_seen_at: new Date().toISOString(),
    };
    emitFleetServers([
      {
        server_id: 77,
        status: 'online',
        load: 3,
        devices: 0,
        active_peers: 0,
        last_seen_at: created.last_seen_at,
      },
    ]);
    await expect.element(dialog.getByTestId('enroll-state')).toHaveTextContent('Online');
    await expect
      .element(dialog.getByTestId('enroll-state'))
      .toHaveTextContent('The node has enrolled.');
    await expect.poll(() => views.length).toBeGreaterThan(0);

    await dialog.getByRole('button', { name: 'Done, I have copied it' }).click();
    const detail = screen.getByRole('dialog', { name: 'de-frankfurt-9' });
    await expect
      .element(detail.getByTestId('server-public-key'))
      .toHaveTextContent(created.public_key ?? '');
    await expect.element(detail).toHaveTextContent('e2e');
    // The token is gone for good: nowhere on the page.
    expect(document.body.innerHTML).not.toContain(TOKEN);
  });

  it('changes a server with its values in the form; pools stay while devices are on it', async () => {
    const server = serverDetail({ server_id: 5, devices: 12, tags: ['streaming'] });
    const sent: Record<string, unknown>[] = [];
    fleet({
      [serverEndpoints.list.url]: () => jsonResponse(200, listOf([server])),
      [serverEndpoints.view.url]: () => jsonResponse(200, { server }),
      [serverEndpoints.update.url]: async (request) => {
        const body = (await request.json()) as Record<string, unknown>;
        sent.push(body);
        return jsonResponse(200, { server: { ...server, capacity: body.capacity } });
      },
    });
    const { screen } = await renderApp('/en/admin/servers/all-servers', admin);
    await screen.getByRole('button', { name: 'de-frankfurt-5' }).click();
    const detail = screen.getByRole('dialog', { name: 'de-frankfurt-5' });
    await detail.getByRole('button', { name: 'Edit' }).click();
    const form = screen.getByRole('dialog', { name: 'Change de-frankfurt-5' });
    await expect.element(form.getByLabelText('Name')).toHaveValue('de-frankfurt-5');
    await expect.element(form.getByLabelText('Country')).toHaveValue('DE');
    await expect.element(form.getByLabelText('Tags')).toHaveValue('streaming');
    await expect.element(form.getByLabelText('IPv4 pool')).toHaveAttribute('readonly');
    await expect
      .element(form.getByLabelText('IPv4 pool'))
      .toHaveAccessibleDescription('Fixed while devices are on this server.');
    await form.getByLabelText('Capacity (devices)').fill('800');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.element(screen.getByRole('dialog', { name: 'de-frankfurt-5' })).toBeVisible();
    expect(sent).toEqual([
      expect.objectContaining({ server_id: 5, capacity: 800, tags: ['streaming'], city_id: 10 }),
    ]);
  });
});
