import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeChallenge } from '#shared/challenge.ts';
import {
  DATA_EXPORT_FILE_NAME,
  DATA_EXPORT_MESSAGES,
  type DataExportStatusResponse,
  dataExportEndpoints as e,
} from '#shared/contracts/data-export.ts';
import { renderApp, testUser } from '../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../test/stub-fetch.ts';

const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const dateOf = (iso: string) =>
  new Intl.DateTimeFormat('en', { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));
const refused = (status: number, code: string, message: string) =>
  jsonResponse(status, { code, errors_info: [message] });

// What the page hands to the browser's download: the file name and its bytes.
let saved: { name: string; blob: Blob | undefined }[];
let blobs: Blob[];
const keepDownloads = (event: MouseEvent) => {
  const link = event.target;
  if (!(link instanceof HTMLAnchorElement) || !link.download) return;
  event.preventDefault();
  saved.push({ name: link.download, blob: blobs.at(-1) });
};

beforeEach(() => {
  saved = [];
  blobs = [];
  const create = URL.createObjectURL.bind(URL);
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob);
    return create(blob);
  });
  document.addEventListener('click', keepDownloads, true);
});

afterEach(() => {
  document.removeEventListener('click', keepDownloads, true);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// Issue 25: the profile page's "Your data" and the page the mailed link opens.
describe('your data panel', () => {
  it('asks for an export, says it is being prepared, then that the link was mailed', async () => {
    const expires = at(24 * HOUR);
    let status: DataExportStatusResponse = { export: null, next_request_at: null };
    const seen = stubFetch({
      [e.status.url]: (request) => {
        if (request.method === 'POST') {
          status = {
            export: {
              state: 'pending',
              requested_at: at(0),
              expires_at: null,
              downloaded_at: null,
            },
            next_request_at: expires,
          };
        }
        return jsonResponse(200, status);
      },
    });
    const { screen } = await renderApp('/en/account/profile', testUser());
    const panel = screen.getByRole('region', { name: 'Your data' });
    await expect.element(panel).toHaveTextContent('invoices with their PDFs');

    await panel.getByRole('button', { name: 'Request my data' }).click();
    const state = panel.getByTestId('data-export-state');
    await expect.element(state).toHaveTextContent('We are preparing your data.');
    await expect.element(state).toHaveAttribute('role', 'status');
    expect(panel.getByRole('button', { name: 'Request my data' }).elements()).toHaveLength(0);
    expect(seen.filter((request) => request.method === 'POST')).toHaveLength(1);

    // The job is done: the next poll finds the link mailed.
    status = {
      export: { state: 'ready', requested_at: at(0), expires_at: expires, downloaded_at: null },
      next_request_at: expires,
    };
    await expect
      .element(state, { timeout: 8_000 })
      .toHaveTextContent(`we e-mailed you a link. It works once, until ${dateOf(expires)}.`);
    await expect.element(state).toHaveTextContent(`new copy after ${dateOf(expires)}`);
  });

  it('offers to try again after a failed build, and shows a refusal in words', async () => {
    stubFetch({
      [e.status.url]: (request) =>
        request.method === 'POST'
          ? refused(429, 'too_many_requests', DATA_EXPORT_MESSAGES.tooSoon)
          : jsonResponse(200, {
              export: {
                state: 'failed',
                requested_at: at(-HOUR),
                expires_at: null,
                downloaded_at: null,
              },
              next_request_at: null,
            }),
    });
    const { screen } = await renderApp('/en/account/profile', testUser());
    const panel = screen.getByRole('region', { name: 'Your data' });
    await expect.element(panel.getByText('We could not prepare your data.')).toBeVisible();
    await panel.getByRole('button', { name: 'Try again' }).click();
    await expect.element(panel.getByRole('alert').filter({ hasText: 'once a day' })).toBeVisible();
  });

  it('says when the status could not be loaded, and loads it again', async () => {
    let fail = true;
    stubFetch({
      [e.status.url]: () =>
        fail
          ? jsonResponse(500, { code: 'internal' })
          : jsonResponse(200, { export: null, next_request_at: null }),
    });
    const { screen } = await renderApp('/en/account/profile', testUser());
    const panel = screen.getByRole('region', { name: 'Your data' });
    const retry = panel.getByRole('button', { name: 'Try again' });
    await expect.element(retry).toBeVisible();
    fail = false;
    await retry.click();
    await expect.element(panel.getByRole('button', { name: 'Request my data' })).toBeVisible();
  });

  it('is not shown on a staff member’s own account page', async () => {
    stubFetch({});
    const { screen } = await renderApp('/en/admin/account/profile', testUser({ role: 'ADMIN' }));
    await expect.element(screen.getByRole('heading', { level: 1 })).toBeVisible();
    expect(screen.getByRole('region', { name: 'Your data' }).elements()).toHaveLength(0);
  });
});

describe('the download page of the mailed link', () => {
  const TOKEN = 'a'.repeat(43);
  const link = `/en/account/data-export?challenge=${encodeChallenge({ token: TOKEN })}`;

  it('downloads the ZIP with the token on the person’s click', async () => {
    const seen = stubFetch({
      [e.download.url]: () =>
        new Response(new Uint8Array([0x50, 0x4b, 3, 4]), {
          status: 200,
          headers: { 'content-type': 'application/zip' },
        }),
    });
    const { screen } = await renderApp(link, testUser());
    const button = screen.getByRole('button', { name: 'Download ZIP file' });
    await expect.element(button).toBeVisible();
    expect(seen).toHaveLength(0);
    await button.click();
    await expect.element(screen.getByText('Your download has started.')).toBeVisible();
    expect(saved.map((file) => file.name)).toEqual([DATA_EXPORT_FILE_NAME]);
    expect(saved[0]?.blob?.size).toBe(4);
    expect(await seen[0]?.clone().json()).toEqual({ token: TOKEN });
  });

  it('says why a spent link does nothing', async () => {
    stubFetch({
      [e.download.url]: () => refused(404, 'not_found', DATA_EXPORT_MESSAGES.linkUsed),
    });
    const { screen } = await renderApp(link, testUser());
    await screen.getByRole('button', { name: 'Download ZIP file' }).click();
    await expect
      .element(screen.getByRole('alert'))
      .toHaveTextContent('This link has already been used.');
    await expect.element(screen.getByRole('link', { name: 'Back to your account' })).toBeVisible();
  });
});
