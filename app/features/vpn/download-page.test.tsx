import { x25519 } from '@noble/curves/ed25519.js';
import jsQR from 'jsqr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentSubscriptionEndpoint } from '#shared/contracts/current-subscription.ts';
import { FLEET_LOCATIONS_CHANNEL } from '#shared/contracts/realtime.ts';
import {
  DEVICE_BLOCKS,
  type DevicesResponse,
  vpnEndpoints as e,
  type LocationsResponse,
  VPN_MESSAGES,
  type VpnDevice,
} from '#shared/contracts/vpn.ts';
import { configFileName } from '#shared/vpn/wireguard-config.ts';
import { fromBase64, isWireGuardKey, toBase64 } from '#shared/vpn/wireguard-key.ts';
import { emitLive, wantedChannels } from '../../realtime/live-signals.ts';
import { renderApp, testUser } from '../../test/render-app.tsx';
import { errorResponse, jsonResponse, stubFetch } from '../../test/stub-fetch.ts';
import { QR_LONG_TEXT } from './qr-code.ts';
import {
  configParts,
  devicesAnswer,
  GB,
  locationsAnswer,
  PERIOD_END,
  vpnDevice,
} from './vpn-test-data.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const longDate = (iso: string) =>
  new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(new Date(iso));
const size = (value: number, unit: string, digits = 1) =>
  new Intl.NumberFormat('en', {
    style: 'unit',
    unit,
    unitDisplay: 'short',
    maximumFractionDigits: digits,
  }).format(value);

/** The server as the page sees it: answers from `state`, each body it was sent, in order. */
function serve(state: {
  devices: DevicesResponse;
  locations?: LocationsResponse;
  devicesFail?: boolean;
  answer?: Partial<Record<'create' | 'move' | 'rekey' | 'rename', () => Response>>;
}) {
  const bodies: { path: string; body: string }[] = [];
  const locations = { calls: 0 };
  let nextId = 100;
  const read = async (request: Request) => {
    const body = await request.text();
    bodies.push({ path: new URL(request.url).pathname, body });
    return body ? (JSON.parse(body) as Record<string, unknown>) : {};
  };
  const replace = (device: VpnDevice) => {
    state.devices = {
      ...state.devices,
      items: state.devices.items.map((item) =>
        item.device_id === device.device_id ? device : item,
      ),
    };
  };
  const find = (id: unknown) => {
    const device = state.devices.items.find((item) => item.device_id === id);
    if (!device) throw new Error(`no device ${String(id)}`);
    return device;
  };
  const seen = stubFetch({
    [currentSubscriptionEndpoint.url]: () =>
      jsonResponse(200, { subscription: null, last_invoice_finalizing: false }),
    [e.devices.url]: async (request) => {
      await read(request);
      return state.devicesFail ? errorResponse(500, 'internal') : jsonResponse(200, state.devices);
    },
    [e.locations.url]: async (request) => {
      await read(request);
      locations.calls += 1;
      return jsonResponse(200, state.locations ?? locationsAnswer());
    },
    [e.create.url]: async (request) => {
      const body = await read(request);
      const answer = state.answer?.create?.();
      if (answer) return answer;
      const device = vpnDevice({
        device_id: nextId++,
        name: String(body.name),
        location: String(body.location),
        public_key: String(body.public_key),
        rx_bytes: 0,
        tx_bytes: 0,
        latest_handshake_at: null,
        address: ['10.8.0.7/32', 'fd42:42:42::7/128'],
      });
      state.devices = { ...state.devices, items: [...state.devices.items, device] };
      return jsonResponse(201, { device, config: configParts() });
    },
    [e.move.url]: async (request) => {
      const body = await read(request);
      const device = {
        ...find(body.device_id),
        location: String(body.location),
        public_key: String(body.public_key),
      };
      replace(device);
      return jsonResponse(200, { device, config: configParts() });
    },
    [e.rekey.url]: async (request) => {
      const body = await read(request);
      const device = {
        ...find(body.device_id),
        public_key: String(body.public_key),
        config_changed_at: null,
      };
      replace(device);
      return jsonResponse(200, { device, config: configParts() });
    },
    [e.rename.url]: async (request) => {
      const body = await read(request);
      const device = { ...find(body.device_id), name: String(body.name) };
      replace(device);
      return jsonResponse(200, { device });
    },
    [e.delete.url]: async (request) => {
      const body = await read(request);
      state.devices = {
        ...state.devices,
        items: state.devices.items.filter((item) => item.device_id !== body.device_id),
      };
      return jsonResponse(200, { success: true });
    },
  });
  return { bodies, seen, locations };
}

const open = () => renderApp('/en/download', testUser());

/** The `PrivateKey = …` line of a `.conf`. */
const privateKeyOf = (conf: string) => /^PrivateKey = (\S+)$/m.exec(conf)?.[1] ?? '';
const publicKeyOf = (privateKey: string) => toBase64(x25519.getPublicKey(fromBase64(privateKey)));

/** Reads the QR code <img> from its pixels, as a phone's camera would. */
async function scanQr(image: HTMLImageElement): Promise<string | undefined> {
  await image.decode();
  const side = 600;
  const canvas = document.createElement('canvas');
  canvas.width = side;
  canvas.height = side;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no canvas');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, side, side);
  context.imageSmoothingEnabled = false;
  context.drawImage(image, 0, 0, side, side);
  return jsQR(context.getImageData(0, 0, side, side).data, side, side)?.data;
}

/** Catches the configuration file the page hands to the browser's download. */
function catchDownloads() {
  const files: { name: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  const create = URL.createObjectURL.bind(URL);
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = create(blob as Blob);
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    const blob = blobs.get(this.href);
    if (blob) files.push({ name: this.download, blob });
  });
  return files;
}

describe('download page: the list', () => {
  it('opens from the menu and says plainly that our own apps do not exist yet', async () => {
    serve({ devices: devicesAnswer() });
    const { screen } = await renderApp('/en/dashboard', testUser());
    await screen.getByTestId('aside').getByRole('link', { name: 'Download' }).click();
    await expect.element(screen.getByRole('heading', { level: 1, name: 'Download' })).toBeVisible();
    const apps = screen.getByRole('region', { name: 'Apps' });
    await expect.element(apps.getByText(/Our own apps are not ready yet/)).toBeVisible();
    const links = apps.getByRole('link');
    expect(links.elements().map((link) => link.textContent)).toEqual([
      'WireGuard for Windows',
      'WireGuard for macOS',
      'WireGuard for iPhone and iPad',
      'WireGuard for Android',
      'WireGuard for Linux',
    ]);
    for (const link of links.elements()) {
      expect(link.getAttribute('href')).toBe('https://www.wireguard.com/install/');
    }
  });

  it('shows the empty state, the usage bar and the device count', async () => {
    serve({ devices: devicesAnswer({ usage: { ...devicesAnswer().usage, used_bytes: 25 * GB } }) });
    const { screen } = await open();
    const panel = screen.getByRole('region', { name: 'WireGuard devices' });
    await expect.element(panel.getByText('No devices yet')).toBeVisible();
    await expect.element(panel.getByText('0 of 10 devices')).toBeVisible();
    const used = `${size(25, 'gigabyte')} of ${size(100, 'gigabyte')} used`;
    await expect.element(panel.getByText(used)).toBeVisible();
    await expect.element(panel.getByText(`Resets on ${longDate(PERIOD_END)}`)).toBeVisible();
    const meter = panel.getByRole('meter', { name: 'Traffic used this period' });
    await expect.element(meter).toHaveAttribute('aria-valuenow', '25');
    await expect.element(meter).toHaveAttribute('aria-valuetext', used);
    await expect.element(panel.getByRole('button', { name: 'Add device' })).toBeEnabled();
  });

  it('lists each device with its location, server, address, traffic and last handshake', async () => {
    serve({
      devices: devicesAnswer({
        items: [
          vpnDevice({ location: 'fastest' }),
          vpnDevice({
            device_id: 2,
            name: 'Phone',
            location: 'US',
            public_key: 'Mrkhs8Dd9Vqf6imHYI9c5e8ikHdYqKetm6L/dfklqLA=',
            server: {
              name: 'us-new-york-1',
              country_code: 'US',
              country_name: 'United States',
              city: 'New York',
              status: 'maintenance',
            },
            latest_handshake_at: null,
          }),
        ],
        usage: { ...devicesAnswer().usage, limit_bytes: null, used_bytes: 24 * GB },
      }),
    });
    const { screen } = await open();
    const panel = screen.getByRole('region', { name: 'WireGuard devices' });
    const laptop = panel.getByTestId('vpn-device').filter({ hasText: 'Laptop' });
    await expect.element(laptop).toBeVisible();
    await expect.element(panel.getByText('2 of 10 devices')).toBeVisible();
    await expect
      .element(panel.getByText(`${size(24, 'gigabyte')} used, no traffic limit`))
      .toBeVisible();
    expect(panel.getByRole('meter').elements()).toHaveLength(0);

    await expect.element(laptop.getByText('Fastest')).toBeVisible();
    await expect.element(laptop.getByText('Amsterdam, Netherlands')).toBeVisible();
    await expect.element(laptop.getByText('Online')).toBeVisible();
    await expect.element(laptop.getByText('10.8.0.2/32, fd42:42:42::2/128')).toBeVisible();
    await expect
      .element(
        laptop.getByText(`${size(3.2, 'gigabyte')} received, ${size(14.6, 'gigabyte')} sent`),
      )
      .toBeVisible();
    await expect.element(laptop.getByText('2 minutes ago')).toBeVisible();
    await expect.element(laptop.getByText('Enabled')).toBeVisible();

    const phone = panel.getByTestId('vpn-device').filter({ hasText: 'Phone' });
    await expect.element(phone.getByText('United States').first()).toBeVisible();
    await expect.element(phone.getByText('New York, United States')).toBeVisible();
    await expect.element(phone.getByText('Maintenance')).toBeVisible();
    await expect.element(phone.getByText('Never connected')).toBeVisible();
    await expect
      .element(phone.getByText('Mrkhs8Dd9Vqf6imHYI9c5e8ikHdYqKetm6L/dfklqLA='))
      .toBeVisible();
    await expect.element(phone.getByRole('button', { name: 'Remove Phone' })).toBeVisible();
  });

  it('writes sizes and dates in the page language', async () => {
    serve({
      devices: devicesAnswer({ items: [vpnDevice()], usage: { ...devicesAnswer().usage } }),
    });
    const { screen } = await renderApp('/fr/download', testUser());
    const item = screen.getByTestId('vpn-device');
    const rx = new Intl.NumberFormat('fr', {
      style: 'unit',
      unit: 'gigabyte',
      unitDisplay: 'short',
      maximumFractionDigits: 1,
    }).format(3.2);
    await expect.element(item.getByText(new RegExp(rx.replace(/\s/g, '\\s')))).toBeVisible();
    const reset = new Intl.DateTimeFormat('fr', { dateStyle: 'long' }).format(new Date(PERIOD_END));
    await expect.element(screen.getByText(new RegExp(reset))).toBeVisible();
  });

  it('shows "Traffic limit reached, resets on …" prominently when the limit is reached', async () => {
    serve({
      devices: devicesAnswer({
        items: [vpnDevice({ enabled: false, blocked_by: 'traffic_limit' })],
        usage: {
          ...devicesAnswer().usage,
          used_bytes: 101 * GB,
          limit_bytes: 100 * GB,
          limit_reached: true,
        },
      }),
    });
    const { screen } = await open();
    const notice = screen.getByTestId('vpn-limit-reached');
    await expect
      .element(notice)
      .toHaveTextContent(`Traffic limit reached, resets on ${longDate(PERIOD_END)}`);
    await expect.element(screen.getByRole('meter')).toHaveAttribute('aria-valuenow', '100');
    await expect.element(screen.getByText('Paused')).toBeVisible();
  });

  it('without access: a notice with the way to the order page, and no adding', async () => {
    serve({
      devices: devicesAnswer({
        access: { active: false, until: null, blocked: false },
        items: [vpnDevice({ enabled: false, blocked_by: 'no_access' })],
      }),
    });
    const { screen } = await open();
    const notice = screen.getByTestId('vpn-no-access');
    await expect.element(notice.getByText('No VPN access')).toBeVisible();
    await expect
      .element(notice.getByRole('link', { name: 'Choose a plan' }))
      .toHaveAttribute('href', '/en/billing/order-v2');
    const add = screen.getByRole('button', { name: 'Add device' });
    await expect.element(add).toBeDisabled();
    await expect.element(add).toHaveAccessibleDescription('You need VPN access to add a device.');
  });

  it('at the device limit: the add button is off and says why', async () => {
    serve({
      devices: devicesAnswer({
        device_limit: 2,
        items: [vpnDevice(), vpnDevice({ device_id: 2, name: 'Phone' })],
      }),
    });
    const { screen } = await open();
    await expect.element(screen.getByText('2 of 2 devices')).toBeVisible();
    const reason = 'You have as many devices as your plan allows. Remove one to add another.';
    await expect.element(screen.getByText(reason)).toBeVisible();
    const add = screen.getByRole('button', { name: 'Add device' });
    await expect.element(add).toBeDisabled();
    await expect.element(add).toHaveAccessibleDescription(reason);
  });

  it.each([
    ['no_access', 'your plan does not include VPN access right now', 'Choose a plan'],
    ['blocked', 'your account is blocked', null],
    ['traffic_limit', `when the count resets on ${longDate(PERIOD_END)}`, null],
    ['device_limit', 'more devices than your plan allows', null],
    ['no_server', 'its server was removed', 'Move'],
  ] as const)(
    'says why a device blocked by %s cannot connect, and what to do',
    async (block, text, action) => {
      expect(DEVICE_BLOCKS).toContain(block);
      serve({
        devices: devicesAnswer({
          items: [
            vpnDevice({
              enabled: false,
              blocked_by: block,
              server: block === 'no_server' ? null : vpnDevice().server,
            }),
          ],
        }),
      });
      const { screen } = await open();
      const reason = screen.getByTestId('vpn-device-blocked');
      await expect.element(reason).toHaveAttribute('data-block', block);
      await expect.element(reason).toHaveTextContent(text);
      await expect.element(screen.getByTestId('vpn-device').getByText('Paused')).toBeVisible();
      if (action) await expect.element(reason.getByText(action, { exact: true })).toBeVisible();
    },
  );

  it('says when the devices could not be loaded, and tries again', async () => {
    const state = { devices: devicesAnswer({ items: [vpnDevice()] }), devicesFail: true };
    serve(state);
    const { screen } = await open();
    const panel = screen.getByRole('region', { name: 'WireGuard devices' });
    await expect
      .element(panel.getByRole('status').getByText('Loading your devices…'))
      .toBeInTheDocument();
    // The query retries once before it reports the failure.
    await expect.element(panel.getByRole('alert'), { timeout: 5000 }).toBeVisible();
    await expect.element(panel.getByText('Your devices could not be loaded.')).toBeVisible();
    state.devicesFail = false;
    await panel.getByRole('button', { name: 'Try again' }).click();
    await expect.element(panel.getByTestId('vpn-device')).toBeVisible();
  });

  it('fetches the devices again when they change elsewhere', async () => {
    const state = { devices: devicesAnswer() };
    serve(state);
    const { screen } = await open();
    await expect.element(screen.getByText('No devices yet')).toBeVisible();
    state.devices = devicesAnswer({ items: [vpnDevice({ name: 'Router' })] });
    emitLive('vpn');
    await expect.element(screen.getByTestId('vpn-device')).toHaveTextContent('Router');
  });
});

describe('download page: adding a device', () => {
  it('makes the key pair here, sends only the public key, and shows the complete .conf once', async () => {
    const server = serve({ devices: devicesAnswer() });
    const files = catchDownloads();
    const { screen } = await open();
    await screen.getByRole('button', { name: 'Add device' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Add a device' });
    await dialog.getByLabelText('Device name').fill('Work laptop');

    // The picker follows the fleet's location channel while it is open.
    expect(wantedChannels()).toContain(FLEET_LOCATIONS_CHANNEL);
    const location = dialog.getByRole('combobox', { name: 'Location' });
    await expect.element(location).toHaveTextContent('Fastest (Netherlands)');
    await expect
      .element(dialog.getByText('The least loaded server near you: now in Netherlands.'))
      .toBeVisible();
    await location.click();
    const options = dialog.getByRole('option');
    expect(options.elements().map((option) => option.textContent)).toEqual([
      'Fastest (Netherlands)',
      'GermanyBerlin, Frankfurt · 33% load',
      'NetherlandsAmsterdam · 21% load',
      'United StatesNew York · 40% load',
    ]);
    await dialog.getByRole('option', { name: /^Germany/ }).click();
    await dialog.getByRole('button', { name: 'Add device' }).click();

    const config = screen.getByRole('dialog', { name: 'Configuration for Work laptop' });
    await expect.element(config.getByTestId('vpn-config-text')).toBeVisible();
    const sent = server.bodies.find((entry) => entry.path === e.create.url);
    const body = JSON.parse(sent?.body ?? '{}') as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['location', 'name', 'public_key']);
    expect(body).toMatchObject({ name: 'Work laptop', location: 'DE' });
    expect(isWireGuardKey(body.public_key ?? '')).toBe(true);

    const conf = (config.getByTestId('vpn-config-text').element() as HTMLTextAreaElement).value;
    const privateKey = privateKeyOf(conf);
    expect(isWireGuardKey(privateKey)).toBe(true);
    expect(publicKeyOf(privateKey)).toBe(body.public_key);
    expect(conf).toContain('[Peer]\nPublicKey = hS7/tAl8F3/ZfdnUKSsAAgcatr3l2rI1bi7SWidIFFU=');
    expect(conf).toContain('Endpoint = de-berlin-1.vpn.example.com:51820');
    // The private key went nowhere: no request carried it.
    for (const { body: text } of server.bodies) expect(text).not.toContain(privateKey);
    for (const request of server.seen) expect(request.url).not.toContain(privateKey.slice(0, 20));

    await expect
      .element(config.getByText(/This configuration cannot be shown again/))
      .toBeVisible();
    const qr = config.getByRole('img', {
      name: 'QR code of the WireGuard configuration for Work laptop',
    });
    await expect.element(qr).toBeVisible();
    expect(await scanQr(qr.element() as HTMLImageElement)).toBe(conf);
    // This .conf (IPv6 too, a host name) is over the limit: drawn at level L, not M.
    expect(conf.length).toBeGreaterThan(QR_LONG_TEXT);
    const svg = decodeURIComponent((qr.element() as HTMLImageElement).src.split(',')[1] ?? '');
    const { create } = await import('qrcode');
    const modules = create(conf, { errorCorrectionLevel: 'L' }).modules.size;
    expect(svg).toContain(`viewBox="0 0 ${modules + 4} ${modules + 4}"`);

    await config.getByRole('button', { name: `Download ${configFileName('Work laptop')}` }).click();
    expect(files.map((file) => file.name)).toEqual(['Work-laptop.conf']);
    expect(await files[0]?.blob.text()).toBe(conf);

    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    await config.getByRole('button', { name: 'Copy' }).click();
    await vi.waitFor(() => expect(writeText).toHaveBeenCalledWith(conf));

    await config.getByRole('button', { name: 'Done' }).click();
    await expect.element(config).not.toBeInTheDocument();
    await expect
      .element(screen.getByTestId('vpn-device').filter({ hasText: 'Work laptop' }))
      .toBeVisible();
    expect(wantedChannels()).not.toContain(FLEET_LOCATIONS_CHANNEL);
    // Nothing on the page holds the private key any more.
    expect(document.body.innerHTML).not.toContain(privateKey);
  });

  it('fetches the locations again when the fleet says they changed', async () => {
    const state = { devices: devicesAnswer(), locations: locationsAnswer() };
    const server = serve(state);
    const { screen } = await open();
    await screen.getByRole('button', { name: 'Add device' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Add a device' });
    await expect
      .element(dialog.getByRole('combobox', { name: 'Location' }))
      .toHaveTextContent('Fastest (Netherlands)');
    state.locations = locationsAnswer({ fastest: { country_code: 'DE', name: 'Germany' } });
    emitLive('locations');
    await expect
      .element(dialog.getByRole('combobox', { name: 'Location' }))
      .toHaveTextContent('Fastest (Germany)');
    expect(server.locations.calls).toBe(2);
  });

  it('puts server errors under their fields, and the device limit above the form', async () => {
    const state: Parameters<typeof serve>[0] = {
      devices: devicesAnswer(),
      answer: {
        create: () =>
          jsonResponse(422, {
            code: 'validation_failed',
            errors_validation: {
              name: ['input_errors.field_is_required'],
              location: [VPN_MESSAGES.locationUnavailable],
            },
            errors_info: [],
          }),
      },
    };
    serve(state);
    const { screen } = await open();
    await screen.getByRole('button', { name: 'Add device' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Add a device' });
    await dialog.getByLabelText('Device name').fill('Tablet');
    await dialog.getByRole('button', { name: 'Add device' }).click();
    await expect
      .element(
        dialog.getByText('No server takes new devices in this location right now. Choose another.'),
      )
      .toBeVisible();
    await expect
      .element(dialog.getByLabelText('Device name'))
      .toHaveAttribute('aria-invalid', 'true');

    state.answer = {
      create: () =>
        jsonResponse(409, {
          code: 'conflict',
          errors_validation: {},
          errors_info: [VPN_MESSAGES.deviceLimit],
        }),
    };
    await dialog.getByRole('button', { name: 'Add device' }).click();
    await expect
      .element(dialog.getByRole('alert'))
      .toHaveTextContent("You have reached your plan's device limit.");

    state.answer = {
      create: () =>
        jsonResponse(422, {
          code: 'validation_failed',
          errors_validation: { public_key: [VPN_MESSAGES.publicKeyTaken] },
          errors_info: [],
        }),
    };
    await dialog.getByRole('button', { name: 'Add device' }).click();
    await expect
      .element(dialog.getByRole('alert'))
      .toHaveTextContent('This key is already in use.');
  });

  it('checks the name before sending', async () => {
    const server = serve({ devices: devicesAnswer() });
    const { screen } = await open();
    await screen.getByRole('button', { name: 'Add device' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Add a device' });
    await dialog.getByRole('button', { name: 'Add device' }).click();
    await expect
      .element(dialog.getByLabelText('Device name'))
      .toHaveAttribute('aria-invalid', 'true');
    expect(server.bodies.filter((entry) => entry.path === e.create.url)).toEqual([]);
  });
});

describe('download page: changing a device', () => {
  const twoDevices = () =>
    devicesAnswer({
      items: [vpnDevice(), vpnDevice({ device_id: 2, name: 'Phone', location: 'fastest' })],
    });

  it('moves a device with a new key pair and shows its new configuration', async () => {
    const server = serve({ devices: twoDevices() });
    const { screen } = await open();
    await screen.getByRole('button', { name: 'Move Phone', exact: true }).click();
    const dialog = screen.getByRole('dialog', { name: 'Move Phone' });
    await dialog.getByRole('combobox', { name: 'Location' }).click();
    await dialog.getByRole('option', { name: /^United States/ }).click();
    await dialog.getByRole('button', { name: 'Move device' }).click();
    const config = screen.getByRole('dialog', { name: 'Configuration for Phone' });
    const text = config.getByTestId('vpn-config-text');
    await expect.element(text).toBeVisible();
    const body = JSON.parse(
      server.bodies.find((entry) => entry.path === e.move.url)?.body ?? '{}',
    ) as Record<string, unknown>;
    expect(body).toMatchObject({ device_id: 2, location: 'US' });
    const privateKey = privateKeyOf((text.element() as HTMLTextAreaElement).value);
    expect(publicKeyOf(privateKey)).toBe(body.public_key);
    await expect.element(config.getByRole('img', { name: /QR code/ })).toBeVisible();
    await config.getByRole('button', { name: 'Done' }).click();
    await expect
      .element(
        screen.getByTestId('vpn-device').filter({ hasText: 'Phone' }).getByText('United States'),
      )
      .toBeVisible();
  });

  it('gives a device a new key after a confirmation, and shows the new configuration', async () => {
    const server = serve({
      devices: devicesAnswer({
        items: [vpnDevice({ config_changed_at: '2026-11-20T08:00:00.000Z' })],
      }),
    });
    const { screen } = await open();
    const item = screen.getByTestId('vpn-device');
    const notice = item.getByTestId('vpn-config-changed');
    await expect
      .element(notice)
      .toHaveTextContent(
        `This device's configuration changed on ${longDate('2026-11-20T08:00:00.000Z')}: get a new key to download a working configuration.`,
      );
    await notice.getByRole('button', { name: 'New key' }).click();
    const confirmDialog = screen.getByRole('dialog', { name: 'New key for Laptop?' });
    await confirmDialog.getByRole('button', { name: 'Make a new key' }).click();
    const config = screen.getByRole('dialog', { name: 'Configuration for Laptop' });
    const text = config.getByTestId('vpn-config-text');
    await expect.element(text).toBeVisible();
    const body = JSON.parse(
      server.bodies.find((entry) => entry.path === e.rekey.url)?.body ?? '{}',
    ) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['device_id', 'public_key']);
    const privateKey = privateKeyOf((text.element() as HTMLTextAreaElement).value);
    expect(publicKeyOf(privateKey)).toBe(body.public_key);
    await config.getByRole('button', { name: 'Done' }).click();
    await expect.element(screen.getByTestId('vpn-config-changed')).not.toBeInTheDocument();
    await expect.element(screen.getByText(String(body.public_key))).toBeVisible();
  });

  it('keeps the old key when the new key is not confirmed', async () => {
    const server = serve({ devices: twoDevices() });
    const { screen } = await open();
    await screen.getByRole('button', { name: 'New key for Laptop' }).click();
    await screen
      .getByRole('dialog', { name: 'New key for Laptop?' })
      .getByRole('button', { name: 'No' })
      .click();
    expect(server.bodies.filter((entry) => entry.path === e.rekey.url)).toEqual([]);
    expect(screen.getByRole('dialog').elements()).toHaveLength(0);
  });

  it('renames a device', async () => {
    const server = serve({ devices: twoDevices() });
    const { screen } = await open();
    await screen.getByRole('button', { name: 'Rename Phone' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Rename Phone' });
    await expect.element(dialog.getByLabelText('Device name')).toHaveValue('Phone');
    await dialog.getByLabelText('Device name').fill('Pixel');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.element(dialog).not.toBeInTheDocument();
    await expect.element(screen.getByRole('button', { name: 'Remove Pixel' })).toBeVisible();
    expect(
      server.bodies
        .filter((entry) => entry.path === e.rename.url)
        .map((entry) => JSON.parse(entry.body)),
    ).toEqual([{ device_id: 2, name: 'Pixel' }]);
  });

  it('removes a device after a confirmation', async () => {
    const server = serve({ devices: twoDevices() });
    const { screen } = await open();
    await screen.getByRole('button', { name: 'Remove Phone' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Remove Phone?' });
    await expect.element(dialog.getByText(/Its key stops working at once/)).toBeVisible();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect
      .element(screen.getByRole('button', { name: 'Remove Phone' }))
      .not.toBeInTheDocument();
    await expect.element(screen.getByText('1 of 10 devices')).toBeVisible();
    expect(
      server.bodies
        .filter((entry) => entry.path === e.delete.url)
        .map((entry) => JSON.parse(entry.body)),
    ).toEqual([{ device_id: 2 }]);
  });
});
