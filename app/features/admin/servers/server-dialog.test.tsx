import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AdminServerDetail, serverEndpoints } from '#shared/contracts/admin/servers.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { fleetCountry, listOf, serverDetail } from './fleet-test-data.ts';

// One server's dialog: its facts, maintenance, a new token after a warning, and removal after
// a confirmation that says how many devices move where.
const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });

function fleet(initial: AdminServerDetail) {
  let server = initial;
  let removed = false;
  const posts: { path: string; body: Record<string, unknown> }[] = [];
  const post =
    (path: string, answer: (body: Record<string, unknown>) => unknown) =>
    async (request: Request) => {
      const body = (await request.json()) as Record<string, unknown>;
      posts.push({ path, body });
      return jsonResponse(200, answer(body));
    };
  stubFetch({
    [serverEndpoints.list.url]: () => jsonResponse(200, listOf(removed ? [] : [server])),
    [serverEndpoints.countries.url]: () => jsonResponse(200, listOf([fleetCountry()], 100)),
    [serverEndpoints.view.url]: () => jsonResponse(200, { server }),
    [serverEndpoints.maintenance.url]: post('maintenance', (body) => {
      server = { ...server, status: body.maintenance ? 'maintenance' : 'online' };
      return { server };
    }),
    [serverEndpoints.rotateToken.url]: post('rotate', () => {
      server = { ...server, token_rotated_at: new Date().toISOString() };
      return { server, enrollment_token: 'vpnnode_rotated-token-0123456789abcdef' };
    }),
    [serverEndpoints.delete.url]: post('delete', () => {
      removed = true;
      return { success: true, moved: 11, stranded: 1 };
    }),
  });
  return posts;
}

async function openServer(server: AdminServerDetail) {
  const { screen } = await renderApp('/en/admin/servers/all-servers', admin);
  await screen.getByRole('button', { name: server.name }).click();
  const dialog = screen.getByRole('dialog', { name: server.name });
  await expect.element(dialog).toBeVisible();
  return { screen, dialog };
}

afterEach(() => vi.unstubAllGlobals());

describe('server dialog', () => {
  it('shows the node’s key, version and dates, or that it waits for the node', async () => {
    fleet(serverDetail({ server_id: 3, agent_version: '0.4.2' }));
    const { dialog } = await openServer(serverDetail({ server_id: 3 }));
    await expect
      .element(dialog.getByTestId('server-public-key'))
      .toHaveTextContent('kPLUPYBjSDgnJoDmsKOPpaAF0pHKmfQ2XHkzQvMIbVA=');
    await expect.element(dialog).toHaveTextContent('0.4.2');
    await expect.element(dialog).toHaveTextContent(/Enrolled\s*Oct 1, 2026/);
    await expect.element(dialog).toHaveTextContent(/Token made\s*Oct 1, 2026/);
    await expect
      .element(dialog.getByLabelText('Set up the interface (as root, once)'))
      .toHaveValue(
        'ip link add wg0 type wireguard\nip address add 10.8.0.1/16 dev wg0\nip address add fd42:42:42::1/64 dev wg0\nip link set wg0 up',
      );
  });

  it('says a new server waits for its node', async () => {
    const waiting = serverDetail({
      server_id: 4,
      status: 'new',
      public_key: null,
      agent_version: null,
      enrolled_at: null,
    });
    fleet(waiting);
    const { dialog } = await openServer(waiting);
    await expect
      .element(dialog.getByTestId('server-public-key'))
      .toHaveTextContent('Waiting for the node to enroll');
    await expect.element(dialog).toHaveTextContent(/Enrolled\s*Never/);
  });

  it('puts the server in maintenance and out again', async () => {
    const posts = fleet(serverDetail({ server_id: 3 }));
    const { screen, dialog } = await openServer(serverDetail({ server_id: 3 }));
    await dialog.getByRole('button', { name: 'Put in maintenance' }).click();
    await expect.element(dialog.getByTestId('server-status')).toHaveTextContent('Maintenance');
    await expect
      .element(screen.getByText('de-frankfurt-3 is in maintenance: no new devices go there.'))
      .toBeVisible();
    await dialog.getByRole('button', { name: 'End maintenance' }).click();
    await expect.element(dialog.getByTestId('server-status')).toHaveTextContent('Online');
    expect(posts.map((post) => post.body)).toEqual([
      { server_id: 3, maintenance: true },
      { server_id: 3, maintenance: false },
    ]);
  });

  it('rotates the token only after saying the old one stops at once, then shows the new one once', async () => {
    const posts = fleet(serverDetail({ server_id: 3 }));
    const { screen, dialog } = await openServer(serverDetail({ server_id: 3 }));
    await dialog.getByRole('button', { name: 'Rotate token' }).click();
    const question = screen.getByRole('dialog', { name: 'Rotate the token of de-frankfurt-3?' });
    await expect.element(question).toHaveTextContent('The old token stops working at once');
    await question.getByRole('button', { name: 'No' }).click();
    expect(posts).toEqual([]);

    await dialog.getByRole('button', { name: 'Rotate token' }).click();
    await screen
      .getByRole('dialog', { name: 'Rotate the token of de-frankfurt-3?' })
      .getByRole('button', { name: 'Rotate token' })
      .click();
    const shown = screen.getByRole('dialog', { name: 'Start the node of de-frankfurt-3' });
    await expect
      .element(shown.getByLabelText('Enrollment token'))
      .toHaveValue('vpnnode_rotated-token-0123456789abcdef');
    await expect
      .element(shown.getByLabelText('Start the node'))
      .toHaveValue(
        expect.stringContaining('VPN_NODE_TOKEN=vpnnode_rotated-token-0123456789abcdef'),
      );
    await expect.element(shown).toHaveTextContent('Start the node again with the new token.');
    expect(posts).toEqual([{ path: 'rotate', body: { server_id: 3 } }]);
  });

  it('removes a server only after saying how many devices move where, then tells what happened', async () => {
    const server = serverDetail({ server_id: 3, devices: 12 });
    const posts = fleet(server);
    const { screen, dialog } = await openServer(server);
    await dialog.getByRole('button', { name: 'Remove' }).click();
    const question = screen.getByRole('dialog', { name: 'Remove de-frankfurt-3?' });
    await expect
      .element(question)
      .toHaveTextContent(
        '12 devices will move to another server in Germany (or the nearest country if none there can take them); the server is then removed.',
      );
    await question.getByRole('button', { name: 'Remove server' }).click();
    await expect.element(question).not.toBeInTheDocument();
    await expect
      .element(screen.getByRole('dialog', { name: 'de-frankfurt-3' }))
      .not.toBeInTheDocument();
    await expect
      .element(
        screen.getByText('de-frankfurt-3 removed. Devices moved: 11; left without a server: 1.'),
      )
      .toBeVisible();
    expect(posts).toEqual([{ path: 'delete', body: { server_id: 3 } }]);
    // The list is fetched again: the server is gone from it.
    await expect.element(screen.getByText('No servers yet')).toBeVisible();
  });

  it('says so when no device is on the server to move', async () => {
    const server = serverDetail({ server_id: 3, devices: 1 });
    fleet(server);
    const { screen, dialog } = await openServer(server);
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect
      .element(screen.getByRole('dialog', { name: 'Remove de-frankfurt-3?' }))
      .toHaveTextContent('1 device will move to another server in Germany');
  });
});
