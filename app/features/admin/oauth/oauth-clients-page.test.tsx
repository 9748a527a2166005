import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type AdminOAuthClient,
  oauthClientEndpoints as e,
} from '#shared/contracts/admin/oauth-clients.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';

// §2 /admin/oauth/server: the list, a new client whose secret is shown once, the refusals
// under their fields, and the confirmations that say what stops working.
const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });
const SECRET = 'vpncs_shown-once-0123456789abcdefghijklmnop';

function oauthClient(extra: Partial<AdminOAuthClient> = {}): AdminOAuthClient {
  return {
    client_id: 'vpnc_partner1',
    name: 'Partner portal',
    type: 'confidential',
    first_party: false,
    redirect_uris: ['https://partner.example/callback'],
    post_logout_redirect_uris: [],
    grant_types: ['authorization_code', 'refresh_token'],
    scopes: ['openid', 'email'],
    logo_uri: null,
    has_secret: true,
    secret_rotated_at: '2026-10-01T10:00:00.000Z',
    disabled_at: null,
    grants: 3,
    created_at: '2026-10-01T10:00:00.000Z',
    updated_at: '2026-10-01T10:00:00.000Z',
    ...extra,
  };
}

const page = (items: AdminOAuthClient[]) => ({
  items,
  controls: { page: 1, per_page: 20, total: items.length, last_page: 1 },
});

function server(initial: AdminOAuthClient[]) {
  let clients = initial;
  const posts: { path: string; body: Record<string, unknown> }[] = [];
  const post =
    (path: string, answer: (body: Record<string, unknown>) => Response) =>
    async (request: Request) => {
      const body = (await request.json()) as Record<string, unknown>;
      posts.push({ path, body });
      return answer(body);
    };
  const replace = (changed: AdminOAuthClient) => {
    clients = clients.map((old) => (old.client_id === changed.client_id ? changed : old));
    return changed;
  };
  const find = (body: Record<string, unknown>) =>
    clients.find((c) => c.client_id === body.client_id) ?? oauthClient();
  stubFetch({
    [e.list.url]: () => jsonResponse(200, page(clients)),
    [e.view.url]: (request) => {
      const id = new URL(request.url).searchParams.get('client_id');
      return jsonResponse(200, { client: clients.find((c) => c.client_id === id) });
    },
    [e.create.url]: post('create', (body) => {
      if ((body.redirect_uris as string[]).includes('https://taken.example/cb')) {
        return jsonResponse(422, {
          code: 'validation_failed',
          errors_validation: { 'redirect_uris.0': ['staff_oauth.errors.uri_duplicate'] },
        });
      }
      const made = oauthClient({ client_id: 'vpnc_new', name: String(body.name), grants: 0 });
      clients = [made, ...clients];
      return jsonResponse(201, { client: made, secret: SECRET });
    }),
    [e.rotateSecret.url]: post('rotate', (body) =>
      jsonResponse(200, { client: replace(find(body)), secret: `${SECRET}-2` }),
    ),
    [e.revokeSecret.url]: post('revoke', (body) =>
      jsonResponse(200, { client: replace({ ...find(body), has_secret: false }) }),
    ),
    [e.disable.url]: post('disable', (body) =>
      jsonResponse(200, {
        client: replace({ ...find(body), disabled_at: new Date().toISOString(), grants: 0 }),
      }),
    ),
  });
  return posts;
}

afterEach(() => vi.unstubAllGlobals());

describe('OAuth clients screen', () => {
  it('lists clients, and says so when there are none', async () => {
    server([oauthClient()]);
    const { screen } = await renderApp('/en/admin/oauth/server', admin);
    const table = screen.getByRole('table', { name: 'OAuth clients' });
    await expect.element(table).toHaveTextContent('Partner portal');
    await expect.element(table).toHaveTextContent('vpnc_partner1');
    await expect.element(table).toHaveTextContent('Confidential');
    await expect.element(table).toHaveTextContent('Active');
    vi.unstubAllGlobals();
    server([]);
    const empty = await renderApp('/en/admin/oauth/server', admin);
    await expect.element(empty.screen.getByText('No OAuth clients yet')).toBeVisible();
  });

  it('refuses bad fields under them before sending, and the server’s too', async () => {
    const posts = server([]);
    const { screen } = await renderApp('/en/admin/oauth/server', admin);
    await screen.getByRole('button', { name: 'Add client' }).first().click();
    const dialog = screen.getByRole('dialog', { name: 'Add an OAuth client' });
    await dialog.getByLabelText('Name', { exact: true }).fill('Partner portal');
    await dialog.getByLabelText('Redirect URIs', { exact: true }).fill('http://partner.example/cb');
    await dialog.getByRole('button', { name: 'Add client' }).click();
    await expect
      .element(dialog.getByText('Use https (plain http only on 127.0.0.1 or localhost).'))
      .toBeVisible();
    await dialog
      .getByLabelText('Redirect URIs', { exact: true })
      .fill('https://partner.example/cb#top');
    await dialog.getByRole('button', { name: 'Add client' }).click();
    await expect
      .element(dialog.getByText('An address must not contain a #fragment.'))
      .toBeVisible();
    expect(posts).toEqual([]);

    await dialog.getByLabelText('Redirect URIs', { exact: true }).fill('https://taken.example/cb');
    await dialog.getByRole('button', { name: 'Add client' }).click();
    await expect.element(dialog.getByText('An address is listed twice.')).toBeVisible();
    expect(posts).toHaveLength(1);
  });

  it('adds a confidential client and shows its secret once, with a warning and a copy button', async () => {
    const posts = server([]);
    const { screen } = await renderApp('/en/admin/oauth/server', admin);
    await screen.getByRole('button', { name: 'Add client' }).first().click();
    const dialog = screen.getByRole('dialog', { name: 'Add an OAuth client' });
    await dialog.getByLabelText('Name', { exact: true }).fill('Partner portal');
    await dialog
      .getByLabelText('Redirect URIs', { exact: true })
      .fill('https://partner.example/cb\nhttp://127.0.0.1:8080/cb');
    await dialog.getByLabelText(/^account/).click();
    await dialog.getByRole('button', { name: 'Add client' }).click();

    const shown = screen.getByRole('dialog', { name: 'Secret of Partner portal' });
    await expect.element(shown.getByLabelText('Client secret')).toHaveValue(SECRET);
    await expect.element(shown.getByLabelText('Client ID')).toHaveValue('vpnc_new');
    await expect.element(shown.getByTestId('secret-warning')).toHaveTextContent('shown this once');
    await expect.element(shown.getByRole('button', { name: 'Copy the secret' })).toBeVisible();
    expect(posts[0]?.body).toEqual({
      name: 'Partner portal',
      type: 'confidential',
      first_party: false,
      redirect_uris: ['https://partner.example/cb', 'http://127.0.0.1:8080/cb'],
      post_logout_redirect_uris: [],
      grant_types: ['authorization_code', 'refresh_token'],
      scopes: ['openid', 'profile', 'email', 'account'],
      logo_uri: null,
    });

    // Closed by its own button only; the detail then says a secret is set, not what it is.
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    const detail = screen.getByRole('dialog', { name: 'Partner portal' });
    await expect.element(detail.getByTestId('secret-state')).toHaveTextContent('Set');
    await expect.element(detail).not.toHaveTextContent(SECRET);
  });

  it('asks before rotating, revoking and disabling, saying what stops working', async () => {
    const posts = server([oauthClient()]);
    const { screen } = await renderApp('/en/admin/oauth/server', admin);
    await screen.getByRole('button', { name: 'Partner portal' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Partner portal' });

    await dialog.getByRole('button', { name: 'New secret' }).click();
    const rotate = screen.getByRole('dialog', { name: 'Make a new secret for Partner portal?' });
    await expect.element(rotate).toHaveTextContent('The current secret stops working at once');
    await rotate.getByRole('button', { name: 'No' }).click();
    expect(posts).toEqual([]);
    await dialog.getByRole('button', { name: 'New secret' }).click();
    await screen
      .getByRole('dialog', { name: 'Make a new secret for Partner portal?' })
      .getByRole('button', { name: 'Make a new secret' })
      .click();
    const shown = screen.getByRole('dialog', { name: 'Secret of Partner portal' });
    await expect.element(shown.getByLabelText('Client secret')).toHaveValue(`${SECRET}-2`);
    await shown.getByRole('button', { name: 'I have copied it' }).click();

    await dialog.getByRole('button', { name: 'Revoke secret' }).click();
    const revoke = screen.getByRole('dialog', { name: 'Revoke the secret of Partner portal?' });
    await expect.element(revoke).toHaveTextContent('cannot sign anyone in');
    await revoke.getByRole('button', { name: 'Revoke secret' }).click();
    await expect.element(dialog.getByTestId('secret-state')).toHaveTextContent('None');

    await dialog.getByRole('button', { name: 'Disable' }).click();
    const disable = screen.getByRole('dialog', { name: 'Disable Partner portal?' });
    await expect.element(disable).toHaveTextContent('who allowed it (3)');
    await disable.getByRole('button', { name: 'Disable' }).click();
    await expect.element(dialog.getByTestId('client-status')).toHaveTextContent('Disabled');
    await expect.element(dialog.getByRole('button', { name: 'Enable' })).toBeVisible();
    expect(posts.map((post) => post.path)).toEqual(['rotate', 'revoke', 'disable']);
    expect(posts.every((post) => post.body.client_id === 'vpnc_partner1')).toBe(true);
  });
});
