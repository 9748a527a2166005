import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountEndpoints, type Device } from '#shared/contracts/account.ts';
import { type DevicesResponse, vpnEndpoints } from '#shared/contracts/vpn.ts';
import { renderApp, testUser } from '../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../test/stub-fetch.ts';
import { devicesAnswer, vpnDevice } from '../vpn/vpn-test-data.ts';

const PER_PAGE = 20;
const TOTAL = 23;

const device = (index: number): Device => ({
  id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  ip: `10.0.0.${index}`,
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
  last_login_at: '2026-11-21T10:00:00.000Z',
  isCurrent: index === 0,
});

afterEach(() => vi.unstubAllGlobals());

// §3 list responses page; the devices panel shows the first page and fetches more on demand.
describe('devices panel', () => {
  it('shows the first page with the current device, then the rest on "Show more"', async () => {
    const seen = stubFetch({
      [vpnEndpoints.devices.url]: () => jsonResponse(200, devicesAnswer()),
      [accountEndpoints.devices.account.url]: (request) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
        const from = (page - 1) * PER_PAGE;
        const items = Array.from({ length: Math.min(PER_PAGE, TOTAL - from) }, (_, offset) =>
          device(from + offset),
        );
        return jsonResponse(200, {
          items,
          controls: { page, per_page: PER_PAGE, total: TOTAL, last_page: 2 },
        });
      },
    });
    const { screen } = await renderApp('/en/account/security', testUser());
    const list = screen.getByTestId('devices');
    await expect.element(list.getByTestId('device').nth(PER_PAGE - 1)).toBeVisible();
    expect(list.getByTestId('device').elements()).toHaveLength(PER_PAGE);
    await expect
      .element(list.getByTestId('device').first())
      .toHaveAttribute('data-current', 'true');

    await screen.getByRole('button', { name: 'Show more devices' }).click();
    await expect.element(list.getByTestId('device').nth(TOTAL - 1)).toBeVisible();
    expect(list.getByTestId('device').elements()).toHaveLength(TOTAL);
    await expect
      .element(screen.getByRole('button', { name: 'Show more devices' }))
      .not.toBeInTheDocument();
    const pages = seen
      .filter((request) => request.url.includes(accountEndpoints.devices.account.url))
      .map((request) => new URL(request.url).searchParams.get('page'));
    expect(pages).toEqual(['1', '2']);
  });
});

const onePage = (items: Device[]) => ({
  items,
  controls: { page: 1, per_page: PER_PAGE, total: items.length, last_page: 1 },
});

// The customer's browsers and WireGuard devices, two groups of one panel (§4 Devices).
describe('devices panel with VPN devices', () => {
  it('lists browsers and VPN devices together, and removes a VPN device after a confirmation', async () => {
    let vpn: DevicesResponse = devicesAnswer({
      items: [
        vpnDevice({ location: 'fastest' }),
        vpnDevice({ device_id: 2, name: 'Phone', enabled: false, blocked_by: 'device_limit' }),
      ],
    });
    const removed: unknown[] = [];
    stubFetch({
      [accountEndpoints.devices.account.url]: () =>
        jsonResponse(200, onePage([device(0), device(1)])),
      [vpnEndpoints.devices.url]: () => jsonResponse(200, vpn),
      [vpnEndpoints.delete.url]: async (request) => {
        const body = (await request.json()) as { device_id: number };
        removed.push(body);
        vpn = { ...vpn, items: vpn.items.filter((item) => item.device_id !== body.device_id) };
        return jsonResponse(200, { success: true });
      },
    });
    const { screen } = await renderApp('/en/account/security', testUser());
    const panel = screen.getByRole('region', { name: 'Devices' });
    const browsers = panel.getByRole('region', { name: 'Browsers' });
    await expect.element(browsers.getByTestId('device').nth(1)).toBeVisible();
    await expect
      .element(browsers.getByRole('button', { name: 'Log out other devices' }))
      .toBeVisible();
    const vpnGroup = panel.getByRole('region', { name: 'VPN devices' });
    const laptop = vpnGroup.getByTestId('vpn-device').filter({ hasText: 'Laptop' });
    await expect.element(laptop).toBeVisible();
    await expect.element(laptop.getByText('Fastest')).toBeVisible();
    await expect.element(laptop.getByText('Amsterdam, Netherlands')).toBeVisible();
    await expect.element(laptop.getByText('Enabled')).toBeVisible();
    const phone = vpnGroup.getByTestId('vpn-device').filter({ hasText: 'Phone' });
    await expect.element(phone.getByText('Paused')).toBeVisible();
    await expect
      .element(vpnGroup.getByRole('link', { name: 'Manage VPN devices' }))
      .toHaveAttribute('href', '/en/download');

    // The download page's confirmation, without a password: a removal only takes access away.
    await vpnGroup.getByRole('button', { name: 'Remove Phone' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Remove Phone?' });
    expect(dialog.getByLabelText('Password').elements()).toHaveLength(0);
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect.element(phone).not.toBeInTheDocument();
    expect(removed).toEqual([{ device_id: 2 }]);
    await expect.element(laptop).toBeVisible();
  });

  it('says when there is no VPN device yet', async () => {
    stubFetch({
      [accountEndpoints.devices.account.url]: () => jsonResponse(200, onePage([device(0)])),
      [vpnEndpoints.devices.url]: () => jsonResponse(200, devicesAnswer()),
    });
    const { screen } = await renderApp('/en/account/security', testUser());
    const vpnGroup = screen.getByRole('region', { name: 'VPN devices' });
    await expect.element(vpnGroup.getByText('No VPN devices yet.')).toBeVisible();
  });

  it('shows staff their browsers only, and asks nothing of the VPN', async () => {
    const seen = stubFetch({
      [accountEndpoints.devices.dashboard.url]: () => jsonResponse(200, onePage([device(0)])),
      [vpnEndpoints.devices.url]: () => jsonResponse(200, devicesAnswer()),
    });
    const { screen } = await renderApp('/en/admin/account/security', testUser({ role: 'ADMIN' }));
    const panel = screen.getByRole('region', { name: 'Devices' });
    await expect.element(panel.getByTestId('device')).toBeVisible();
    await expect
      .element(
        panel.getByText('Browsers where you are signed in. Log out any you do not recognise.'),
      )
      .toBeVisible();
    expect(screen.getByRole('region', { name: 'VPN devices' }).elements()).toHaveLength(0);
    expect(seen.some((request) => request.url.includes('/vpn/'))).toBe(false);
  });
});
