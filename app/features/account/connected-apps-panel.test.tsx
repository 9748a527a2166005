import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type ConnectedApp,
  connectedAppsEndpoints as e,
} from '#shared/contracts/connected-apps.ts';
import { renderApp, testUser } from '../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../test/stub-fetch.ts';

afterEach(() => vi.unstubAllGlobals());

const tv: ConnectedApp = {
  grant_id: 'grant-tv',
  client: { name: 'Shieldline for TV and routers', logo_uri: null, first_party: true },
  scopes: ['openid', 'offline_access', 'vpn'],
  device_name: 'Living-room TV',
  created_at: '2026-11-20T10:00:00.000Z',
  last_used_at: '2026-11-28T10:00:00.000Z',
};
const phone: ConnectedApp = {
  ...tv,
  grant_id: 'grant-phone',
  client: { ...tv.client, name: 'Shieldline for Android' },
  scopes: ['openid', 'account'],
  device_name: null,
  last_used_at: null,
};

// Issue 24: the security page's connected apps.
describe('connected apps panel', () => {
  it('lists each app with its device, scopes and last use, and signs one out after asking', async () => {
    let items = [tv, phone];
    const seen = stubFetch({
      [e.list.url]: () => jsonResponse(200, { items }),
      [e.revoke.url]: () => {
        items = [phone];
        return jsonResponse(200, { success: true });
      },
    });
    const { screen } = await renderApp('/en/account/security', testUser());
    const list = screen.getByTestId('connected-apps');
    const first = list.getByTestId('connected-app').first();
    await expect.element(first).toHaveTextContent('Shieldline for TV and routers · Living-room TV');
    await expect.element(first).toHaveTextContent('last used Nov 28, 2026');
    await expect
      .element(first)
      .toHaveTextContent('See the servers and add, list and remove its VPN devices');
    await expect
      .element(list.getByTestId('connected-app').nth(1))
      .toHaveTextContent('not used yet');

    await screen.getByRole('button', { name: 'Sign out Shieldline for TV and routers' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Sign out Shieldline for TV and routers?' });
    await expect.element(dialog).toHaveTextContent('the VPN device it added is removed');
    await dialog.getByRole('button', { name: 'Sign out' }).click();
    await expect
      .element(list.getByTestId('connected-app').first())
      .toHaveTextContent('Shieldline for Android');
    expect(list.getByTestId('connected-app').elements()).toHaveLength(1);
    const revoked = seen.find((request) => request.url.endsWith(e.revoke.url));
    expect(await revoked?.clone().json()).toEqual({ grant_id: 'grant-tv' });
  });

  it('says when no app is signed in, and offers to try again after a failure', async () => {
    let fail = true;
    stubFetch({
      [e.list.url]: () =>
        fail ? jsonResponse(500, { code: 'internal' }) : jsonResponse(200, { items: [] }),
    });
    const { screen } = await renderApp('/en/account/security', testUser());
    const panel = screen.getByRole('region', { name: 'Connected apps' });
    const retry = panel.getByRole('button', { name: 'Try again' });
    await expect.element(retry).toBeVisible();
    fail = false;
    await retry.click();
    await expect.element(panel.getByText('No app is signed in with your account.')).toBeVisible();
  });
});
