import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountEndpoints, type Device } from '#shared/contracts/account.ts';
import { renderApp, testUser } from '../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../test/stub-fetch.ts';

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
