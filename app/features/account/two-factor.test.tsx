import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { accountEndpoints } from '#shared/contracts/account.ts';
import { recoveryCodesFile } from '#shared/two-factor/recovery-codes-file.ts';
import { renderApp, testUser } from '../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../test/stub-fetch.ts';

const e = accountEndpoints;
const CODES = Array.from({ length: 10 }, (_, index) => `abcde-fgh${index}k`.replace('0', 'z'));
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><path d="M0 0h2v2H0z"/></svg>';

// What the page hands to the browser's download: the file name and its text.
let downloads: { name: string; text: Promise<string> }[];
let blobs: Blob[];
const keepDownloads = (event: MouseEvent) => {
  const link = event.target;
  if (!(link instanceof HTMLAnchorElement) || !link.download) return;
  event.preventDefault();
  const blob = blobs.at(-1);
  downloads.push({ name: link.download, text: blob ? blob.text() : Promise.resolve('') });
};

beforeEach(() => {
  downloads = [];
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

/** The server's answers to a two-factor setup whose confirmation brings CODES. */
function stubSetup() {
  const unconfirmed = testUser({ two_factor_authentication: true });
  const confirmed = { ...unconfirmed, two_factor_authentication_confirmed: true };
  return stubFetch({
    [e.twoFactorEnable.account.url]: () => jsonResponse(200, { user: unconfirmed }),
    [e.twoFactorQr.account.url]: () =>
      jsonResponse(200, { code: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', svg: SVG }),
    [e.twoFactorConfirm.account.url]: () =>
      jsonResponse(200, { user: confirmed, recovery_codes: CODES }),
  });
}

// §4 two-factor recovery codes: the first set shows once after the confirmation; any later
// set is downloaded as 2fa_recovery_codes.txt after the password (§7).
describe('two-factor recovery codes', () => {
  it('shows the first codes once after confirming, and can save exactly those', async () => {
    const seen = stubSetup();
    const { screen } = await renderApp('/en/account/security', testUser());
    await screen.getByRole('button', { name: 'Set up' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Set up two-factor authentication' });
    await expect.element(dialog.getByTestId('two-factor-qr')).toBeVisible();
    await screen.getByTestId('code-digit-1').click();
    await userEvent.keyboard('123456');

    const codes = screen.getByRole('dialog', { name: 'Save your recovery codes' });
    await expect.element(codes).toHaveTextContent('They are shown only this once');
    expect(
      codes
        .getByRole('listitem')
        .elements()
        .map((item) => item.textContent),
    ).toEqual(CODES);
    // No password was asked for what is already on screen.
    expect(codes.getByLabelText('Password').elements()).toHaveLength(0);
    // Shown once: no accidental dismissal.
    expect(codes.getByRole('button', { name: 'Close' }).elements()).toHaveLength(0);
    await userEvent.keyboard('{Escape}');
    await expect.element(codes).toBeVisible();

    await codes.getByRole('button', { name: 'Download these codes' }).click();
    expect(downloads.map((file) => file.name)).toEqual(['2fa_recovery_codes.txt']);
    // The very file the server writes for a later set (recovery-codes.test.ts checks its side).
    expect(await downloads[0]?.text).toBe(recoveryCodesFile(CODES, 'en'));
    // The codes came from the confirmation: no other call made a new set.
    expect(seen.some((request) => request.url.endsWith(e.recoveryCodes.account.url))).toBe(false);

    await codes.getByRole('button', { name: 'I have saved them' }).click();
    await expect.element(codes).not.toBeInTheDocument();
    await expect
      .element(screen.getByTestId('two-factor-state'))
      .toHaveAttribute('data-state', 'on');
    await expect.element(screen.getByRole('button', { name: 'New recovery codes' })).toBeVisible();
  });

  it('saves the shown codes with the header in the page language', async () => {
    stubSetup();
    const { screen } = await renderApp('/fr/account/security', testUser());
    await screen.getByRole('button', { name: 'Configurer' }).click();
    await expect.element(screen.getByTestId('two-factor-qr')).toBeVisible();
    await screen.getByTestId('code-digit-1').click();
    await userEvent.keyboard('123456');
    const codes = screen.getByRole('dialog', { name: 'Conservez vos codes de secours' });
    await codes.getByRole('button', { name: 'Télécharger ces codes' }).click();
    expect(downloads.map((file) => file.name)).toEqual(['2fa_recovery_codes.txt']);
    const text = await downloads[0]?.text;
    expect(text).toBe(recoveryCodesFile(CODES, 'fr'));
    expect(text).toMatch(/^Codes de récupération/);
    // Closed as the user would: a modal left open keeps the next test's page hidden.
    await codes.getByRole('button', { name: 'Je les ai enregistrés' }).click();
    await expect.element(codes).not.toBeInTheDocument();
  });

  it('downloads a new set only after the password, in the page language', async () => {
    const seen = stubFetch({
      [e.recoveryCodes.account.url]: () =>
        new Response(`Header\n\n${CODES.join('\n')}\n`, {
          headers: { 'content-type': 'text/plain; charset=utf-8' },
        }),
    });
    const { screen } = await renderApp(
      '/en/account/security',
      testUser({ two_factor_authentication: true, two_factor_authentication_confirmed: true }),
    );
    await screen.getByRole('button', { name: 'New recovery codes' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Download new recovery codes' });
    await expect.element(dialog).toHaveTextContent('stop working');
    await dialog.getByRole('button', { name: 'Download new codes' }).click();
    await expect
      .element(dialog.getByLabelText('Password'))
      .toHaveAccessibleDescription('This field is required.');
    expect(seen.some((request) => request.url.endsWith(e.recoveryCodes.account.url))).toBe(false);

    await dialog.getByLabelText('Password').fill('Correct#horse1');
    await dialog.getByRole('button', { name: 'Download new codes' }).click();
    await expect.element(dialog).not.toBeInTheDocument();
    const request = seen.find((item) => item.url.endsWith(e.recoveryCodes.account.url));
    expect(await request?.json()).toEqual({ password: 'Correct#horse1', locale: 'en' });
    expect(downloads.map((file) => file.name)).toEqual(['2fa_recovery_codes.txt']);
    expect(await downloads[0]?.text).toContain(CODES[0]);
  });
});
