import { afterEach, describe, expect, it, vi } from 'vitest';
import { customerVpnEndpoints } from '#shared/contracts/admin/customer-vpn.ts';
import { type CustomerDetail, customerEndpoints } from '#shared/contracts/admin/customers.ts';
import type { DevicesResponse, VpnDevice } from '#shared/contracts/vpn.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';

// §2 /admin/customers/{id}: the customer's VPN panel: access, this period's traffic against
// the limit, the device limit, and each WireGuard device, removable after a confirmation.
const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });
const GB = 1_000_000_000;

const customer: CustomerDetail = {
  id: 3,
  name: 'Cora Customer',
  username: 'cora',
  email: 'customer@example.com',
  role: 'USER',
  activated: true,
  blocked: false,
  delete_at: null,
  created_at: '2026-10-01T10:00:00.000Z',
  email_tmp: null,
  photo: null,
  country_id: null,
  locale: 'en',
  blocked_at: null,
  traffic_limit: 100,
  two_factor_authentication: false,
  two_factor_authentication_confirmed: false,
  has_password: true,
  devices_count: 1,
};

function device(overrides: Partial<VpnDevice>): VpnDevice {
  return {
    device_id: 1,
    name: 'Laptop',
    public_key: 'VFVwEE38RU3wVJJLFBENPqkwsVHYLRX+qzX9HHU/UAI=',
    location: 'fastest',
    server: {
      name: 'nl-amsterdam-1',
      country_code: 'NL',
      country_name: 'Netherlands',
      city: 'Amsterdam',
      status: 'online',
    },
    address: ['10.8.0.2/32', 'fd42:42:42::2/128'],
    enabled: true,
    blocked_by: null,
    rx_bytes: 3.2 * GB,
    tx_bytes: 14.6 * GB,
    latest_handshake_at: new Date(Date.now() - 90_000).toISOString(),
    config_changed_at: null,
    created_at: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}

function vpn(items: VpnDevice[]): DevicesResponse {
  return {
    items,
    device_limit: 10,
    access: { active: true, until: '2027-11-27T10:00:00.000Z', blocked: false },
    usage: {
      period_start: '2026-11-27T10:00:00.000Z',
      period_end: '2026-12-27T10:00:00.000Z',
      used_bytes: 24 * GB,
      limit_bytes: 100 * GB,
      limit_reached: false,
    },
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('customer VPN panel', () => {
  it('shows usage against the limit, the device limit and each device, and removes one', async () => {
    let devices = [
      device({}),
      device({
        device_id: 2,
        name: 'Phone',
        location: 'US',
        server: null,
        enabled: false,
        blocked_by: 'no_server',
        latest_handshake_at: null,
        config_changed_at: '2026-11-20T10:00:00.000Z',
      }),
    ];
    const removed: unknown[] = [];
    stubFetch({
      [customerEndpoints.view.url]: () => jsonResponse(200, { user: customer }),
      [customerVpnEndpoints.view.url]: (request) => {
        expect(new URL(request.url).searchParams.get('user_id')).toBe('3');
        return jsonResponse(200, vpn(devices));
      },
      [customerVpnEndpoints.deleteDevice.url]: async (request) => {
        const body = (await request.json()) as { device_id: number };
        removed.push(body);
        devices = devices.filter((item) => item.device_id !== body.device_id);
        return jsonResponse(200, { success: true });
      },
    });
    const { screen } = await renderApp('/en/admin/customers/3', admin);
    const panel = screen.getByRole('region', { name: 'VPN' });
    await expect.element(panel.getByTestId('vpn-usage')).toHaveTextContent('24 GB of 100 GB');
    await expect
      .element(panel.getByRole('progressbar', { name: 'Traffic used this period' }))
      .toHaveAttribute('aria-valuenow', '24');
    await expect.element(panel).toHaveTextContent('Resets on Dec 27, 2026');
    await expect
      .element(panel.getByTestId('vpn-device-limit'))
      .toHaveTextContent('2 of 10 allowed');
    await expect.element(panel.getByTestId('vpn-access')).toHaveTextContent('Active until');

    const laptop = panel.getByRole('row').filter({ hasText: 'Laptop' });
    await expect.element(laptop).toHaveTextContent('Fastest');
    await expect.element(laptop).toHaveTextContent(/nl-amsterdam-1\s*Amsterdam, Netherlands/);
    await expect.element(laptop.getByTestId('server-status')).toHaveTextContent('Online');
    await expect.element(laptop).toHaveTextContent('On');
    await expect.element(laptop).toHaveTextContent('14.6 GB down, 3.2 GB up');
    await expect.element(laptop.getByText('2 minutes ago')).toHaveAttribute('title');
    const phone = panel.getByRole('row').filter({ hasText: 'Phone' });
    await expect.element(phone).toHaveTextContent('United States');
    await expect.element(phone).toHaveTextContent('No server');
    await expect.element(phone).toHaveTextContent('Off: no server');
    await expect.element(phone).toHaveTextContent('Needs its new configuration');
    await expect.element(phone).toHaveTextContent('Never');

    await phone.getByRole('button', { name: 'Remove the device Phone' }).click();
    const question = screen.getByRole('dialog', { name: 'Remove Phone?' });
    await expect.element(question).toHaveTextContent('customer@example.com can add it again.');
    await question.getByRole('button', { name: 'Remove' }).click();
    await expect.element(phone).not.toBeInTheDocument();
    expect(removed).toEqual([{ user_id: 3, device_id: 2 }]);
    await expect
      .element(panel.getByTestId('vpn-device-limit'))
      .toHaveTextContent('1 of 10 allowed');
  });

  it('says when there is no limit and no device', async () => {
    stubFetch({
      [customerEndpoints.view.url]: () => jsonResponse(200, { user: customer }),
      [customerVpnEndpoints.view.url]: () =>
        jsonResponse(200, {
          ...vpn([]),
          access: { active: false, until: null, blocked: false },
          usage: { ...vpn([]).usage, limit_bytes: null, used_bytes: 0 },
        }),
    });
    const { screen } = await renderApp('/en/admin/customers/3', admin);
    const panel = screen.getByRole('region', { name: 'VPN' });
    await expect.element(panel.getByTestId('vpn-usage')).toHaveTextContent('0 kB (no limit)');
    await expect.element(panel.getByTestId('vpn-access')).toHaveTextContent('No access now');
    await expect.element(panel).toHaveTextContent('No WireGuard devices yet.');
  });
});
