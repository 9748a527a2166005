import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { type Passkey, passkeyEndpoints } from '#shared/contracts/passkeys.ts';
import { loadWebAuthn, type WebAuthnBrowser } from '../../lib/webauthn.ts';
import { renderApp, testUser } from '../../test/render-app.tsx';
import { errorResponse, jsonResponse, stubFetch } from '../../test/stub-fetch.ts';

// The browser's passkey prompt is the one thing stood in for: the ceremony itself runs in
// the Playwright journey (e2e/passkeys.spec.ts) against Chromium's virtual authenticator.
vi.mock('../../lib/webauthn.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/webauthn.ts')>()),
  loadWebAuthn: vi.fn(),
}));

const e = passkeyEndpoints;
const SECURITY = '/en/account/security';

const CREDENTIAL = {
  id: 'Y3JlZGVudGlhbA',
  rawId: 'Y3JlZGVudGlhbA',
  type: 'public-key',
  authenticatorAttachment: 'platform',
  clientExtensionResults: {},
  response: { clientDataJSON: 'e30', attestationObject: 'oA', transports: ['internal'] },
} as const;

const OPTIONS = {
  rp: { id: 'localhost', name: 'Shieldline VPN' },
  user: { id: 'dXNlcg', name: 'ann@example.com', displayName: 'Ann Lee' },
  challenge: 'Y2hhbGxlbmdl',
  pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
  excludeCredentials: [],
};

const passkey = (overrides: Partial<Passkey> = {}): Passkey => ({
  id: 1,
  name: 'Work laptop',
  created_at: '2026-11-02T10:00:00.000Z',
  last_used_at: '2026-11-20T08:30:00.000Z',
  backed_up: false,
  ...overrides,
});

const listAnswer = (items: Passkey[]) => jsonResponse(200, { items, limit: 20 });

let startRegistration: ReturnType<typeof vi.fn>;

beforeEach(() => {
  startRegistration = vi.fn(async () => CREDENTIAL);
  vi.mocked(loadWebAuthn).mockResolvedValue({ startRegistration } as unknown as WebAuthnBrowser);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('passkeys panel', () => {
  it('lists each passkey with its name, when it was added and last used', async () => {
    stubFetch({
      [e.list.account.url]: () =>
        listAnswer([
          passkey(),
          passkey({ id: 2, name: 'Phone', last_used_at: null, backed_up: true }),
        ]),
    });
    const { screen } = await renderApp(SECURITY, testUser());
    const panel = screen.getByRole('region', { name: 'Passkeys' });
    const list = panel.getByRole('list', { name: 'Your passkeys' });
    await expect.element(list.getByRole('listitem').nth(1)).toBeVisible();
    const laptop = list.getByRole('listitem').nth(0);
    const phone = list.getByRole('listitem').nth(1);
    await expect.element(laptop).toHaveTextContent('Work laptop');
    await expect.element(laptop).toHaveTextContent('Added Nov 02, 2026 · Last used Nov 20, 2026');
    await expect.element(phone).toHaveTextContent('Synced');
    await expect.element(phone).toHaveTextContent('Never used');
    await expect.element(panel.getByRole('button', { name: 'Rename Phone' })).toBeVisible();
    await expect.element(panel.getByRole('button', { name: 'Remove Work laptop' })).toBeVisible();
  });

  it('says when there is none yet, and when the list could not be loaded', async () => {
    let fail = true;
    stubFetch({
      [e.list.account.url]: () => (fail ? errorResponse(500, 'internal') : listAnswer([])),
    });
    const { screen } = await renderApp(SECURITY, testUser());
    const panel = screen.getByRole('region', { name: 'Passkeys' });
    await expect.element(panel.getByRole('alert')).toBeVisible();
    fail = false;
    await panel.getByRole('button', { name: 'Try again' }).click();
    await expect.element(panel.getByText('No passkeys yet')).toBeVisible();
  });

  it('adds a passkey: the password, the browser, then its name', async () => {
    let items: Passkey[] = [];
    const bodies: Record<string, unknown[]> = { options: [], register: [], rename: [] };
    stubFetch({
      [e.list.account.url]: () => listAnswer(items),
      [e.registrationOptions.account.url]: async (request) => {
        const body = (await request.json()) as { password: string };
        bodies.options?.push(body);
        if (body.password !== 'Right#pass1') {
          return jsonResponse(422, {
            code: 'validation_failed',
            errors_validation: { password: ['errors.password_incorrect'] },
          });
        }
        return jsonResponse(200, { options: OPTIONS });
      },
      [e.register.account.url]: async (request) => {
        const body = (await request.json()) as { name: string };
        bodies.register?.push(body);
        const added = passkey({ id: 7, name: body.name, last_used_at: null });
        items = [added];
        return jsonResponse(201, { passkey: added });
      },
      [e.rename.account.url]: async (request) => {
        const body = (await request.json()) as { id: number; name: string };
        bodies.rename?.push(body);
        items = items.map((item) => (item.id === body.id ? { ...item, name: body.name } : item));
        return jsonResponse(200, { passkey: items[0] });
      },
    });
    const { screen } = await renderApp(SECURITY, testUser());
    const panel = screen.getByRole('region', { name: 'Passkeys' });
    await expect.element(panel.getByText('No passkeys yet')).toBeVisible();
    await panel.getByRole('button', { name: 'Add a passkey' }).click();

    const dialog = screen.getByRole('dialog', { name: 'Add a passkey' });
    const password = dialog.getByLabelText('Password');
    await expect.element(password).toHaveFocus();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect.element(password).toHaveAccessibleDescription('This field is required.');
    await password.fill('wrong');
    await userEvent.keyboard('{Enter}');
    await expect.element(password).toHaveAccessibleDescription('The password is incorrect.');
    expect(startRegistration).not.toHaveBeenCalled();

    await password.fill('Right#pass1');
    await userEvent.keyboard('{Enter}');
    const name = dialog.getByLabelText('Name');
    await expect.element(name).toHaveFocus();
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    // Kept at once under a suggested name, the credential as the browser made it.
    expect(bodies.register).toHaveLength(1);
    expect(bodies.register?.[0]).toMatchObject({ credential: CREDENTIAL });
    // Listed already, behind the dialog (hidden from the accessibility tree while it is open).
    await expect.element(screen.getByTestId('passkey')).toBeInTheDocument();

    await name.fill('My laptop');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.element(dialog).not.toBeInTheDocument();
    expect(bodies.rename).toEqual([{ id: 7, name: 'My laptop' }]);
    await expect.element(panel.getByTestId('passkey')).toHaveTextContent('My laptop');
    await expect.element(panel.getByRole('button', { name: 'Add a passkey' })).toHaveFocus();
  });

  it('says when the browser prompt was closed, and tries again with the same password', async () => {
    startRegistration.mockRejectedValueOnce(
      Object.assign(new Error('closed'), { name: 'NotAllowedError' }),
    );
    let asked = 0;
    stubFetch({
      [e.list.account.url]: () => listAnswer([]),
      [e.registrationOptions.account.url]: () => {
        asked += 1;
        return jsonResponse(200, { options: OPTIONS });
      },
      [e.register.account.url]: () => jsonResponse(201, { passkey: passkey({ id: 3 }) }),
    });
    const { screen } = await renderApp(SECURITY, testUser());
    await screen.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Add a passkey' });
    await dialog.getByLabelText('Password').fill('Right#pass1');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect
      .element(dialog.getByRole('alert'))
      .toHaveTextContent('The passkey request was cancelled or timed out.');
    await dialog.getByRole('button', { name: 'Try again' }).click();
    await expect.element(dialog.getByLabelText('Name')).toBeVisible();
    expect(asked).toBe(2);
  });

  it('renames a passkey in a dialog, checking the name', async () => {
    let items = [passkey()];
    stubFetch({
      [e.list.account.url]: () => listAnswer(items),
      [e.rename.account.url]: async (request) => {
        const body = (await request.json()) as { id: number; name: string };
        items = [passkey({ name: body.name })];
        return jsonResponse(200, { passkey: items[0] });
      },
    });
    const { screen } = await renderApp(SECURITY, testUser());
    await screen.getByRole('button', { name: 'Rename Work laptop' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Rename passkey' });
    const name = dialog.getByLabelText('Name');
    await expect.element(name).toHaveValue('Work laptop');
    await name.fill('   ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.element(name).toHaveAccessibleDescription('This field is required.');
    await name.fill('Desk');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.element(dialog).not.toBeInTheDocument();
    await expect.element(screen.getByTestId('passkey')).toHaveTextContent('Desk');
    // Focus returns to where the person was.
    await expect.element(screen.getByRole('button', { name: 'Rename Desk' })).toHaveFocus();
  });

  it('removes a passkey after the password', async () => {
    let items = [passkey(), passkey({ id: 2, name: 'Phone' })];
    const removed: unknown[] = [];
    stubFetch({
      [e.list.account.url]: () => listAnswer(items),
      [e.remove.account.url]: async (request) => {
        const body = (await request.json()) as { id: number; password: string };
        removed.push(body);
        items = items.filter((item) => item.id !== body.id);
        return jsonResponse(200, { success: true });
      },
    });
    const { screen } = await renderApp(SECURITY, testUser());
    await screen.getByRole('button', { name: 'Remove Phone' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Remove Phone?' });
    await dialog.getByLabelText('Password').fill('Right#pass1');
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect.element(dialog).not.toBeInTheDocument();
    expect(removed).toEqual([{ id: 2, password: 'Right#pass1' }]);
    await expect.element(screen.getByText('Phone', { exact: true })).not.toBeInTheDocument();
    expect(screen.getByTestId('passkey').elements()).toHaveLength(1);
  });

  it('uses the dashboard base for staff', async () => {
    const seen = stubFetch({ [e.list.dashboard.url]: () => listAnswer([passkey()]) });
    const { screen } = await renderApp('/en/admin/account/security', testUser({ role: 'ADMIN' }));
    await expect.element(screen.getByTestId('passkey')).toBeVisible();
    expect(seen.some((request) => request.url.includes(e.list.account.url))).toBe(false);
  });

  it('shows nothing of passkeys in a browser without WebAuthn', async () => {
    vi.stubGlobal('PublicKeyCredential', undefined);
    const seen = stubFetch({ [e.list.account.url]: () => listAnswer([passkey()]) });
    const { screen } = await renderApp(SECURITY, testUser());
    await expect
      .element(screen.getByRole('region', { name: 'Devices', exact: true }))
      .toBeVisible();
    expect(screen.getByRole('region', { name: 'Passkeys' }).elements()).toHaveLength(0);
    expect(seen.some((request) => request.url.includes('/passkeys/'))).toBe(false);
  });
});
