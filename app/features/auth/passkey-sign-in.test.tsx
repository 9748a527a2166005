import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type PasskeySignInRequest, passkeyEndpoints } from '#shared/contracts/passkeys.ts';
import { loadWebAuthn, type WebAuthnBrowser } from '../../lib/webauthn.ts';
import { renderAuthScreen } from '../../test/render-auth-screen.tsx';
import { jsonResponse, stubFetch } from '../../test/stub-fetch.ts';
import { testUser } from '../../test/test-user.ts';
import { SignInPage } from './sign-in-page.tsx';

// The browser's passkey prompt and autofill are stood in for; the real ceremony runs in the
// Playwright journey (e2e/passkeys.spec.ts) with Chromium's virtual authenticator.
vi.mock('../../lib/webauthn.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/webauthn.ts')>()),
  loadWebAuthn: vi.fn(),
}));

const e = passkeyEndpoints;
const OPTIONS = { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', userVerification: 'required' };
const CREDENTIAL = {
  id: 'Y3JlZGVudGlhbA',
  rawId: 'Y3JlZGVudGlhbA',
  type: 'public-key',
  clientExtensionResults: {},
  response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
} as const;

let startAuthentication: ReturnType<typeof vi.fn>;
let autofill: boolean;

beforeEach(() => {
  autofill = false;
  startAuthentication = vi.fn(async () => CREDENTIAL);
  vi.mocked(loadWebAuthn).mockResolvedValue({
    startAuthentication,
    browserSupportsWebAuthnAutofill: async () => autofill,
    WebAuthnAbortService: { cancelCeremony: () => undefined },
  } as unknown as WebAuthnBrowser);
});

afterEach(() => vi.unstubAllGlobals());

/** The server's side: options, and a verify answering `answer` (the user by default). */
function stubServer(answer = () => jsonResponse(200, { user: testUser() })) {
  const verified: PasskeySignInRequest[] = [];
  const seen = stubFetch({
    [e.signInOptions.url]: () => jsonResponse(200, { options: OPTIONS }),
    [e.signIn.url]: async (request) => {
      verified.push((await request.json()) as PasskeySignInRequest);
      return answer();
    },
  });
  return { seen, verified };
}

describe('signing in with a passkey', () => {
  it('signs in with the button and goes on as a password sign-in does', async () => {
    const { verified } = stubServer();
    const { screen } = await renderAuthScreen(SignInPage, '/en/signin');
    await screen.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect.element(screen.getByTestId('elsewhere')).toBeVisible();
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(verified).toEqual([{ credential: CREDENTIAL }]);
  });

  it('offers passkeys in the e-mail field’s autofill and signs in with the one picked', async () => {
    autofill = true;
    const { verified } = stubServer();
    const { screen } = await renderAuthScreen(SignInPage, '/en/signin');
    await expect
      .element(screen.getByLabelText('E-mail address'))
      .toHaveAttribute('autocomplete', 'username webauthn');
    await expect.element(screen.getByTestId('elsewhere')).toBeVisible();
    expect(startAuthentication).toHaveBeenCalledWith({
      optionsJSON: OPTIONS,
      useBrowserAutofill: true,
    });
    expect(verified).toHaveLength(1);
  });

  it('shows why the server refused the passkey', async () => {
    stubServer(() =>
      jsonResponse(401, { code: 'unauthenticated', errors_info: ['passkeys.errors.counter'] }),
    );
    const { screen } = await renderAuthScreen(SignInPage, '/en/signin');
    await screen.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect
      .element(screen.getByRole('alert'))
      .toHaveTextContent('This passkey was refused because it looks like a copy of another one');
    expect(screen.getByTestId('elsewhere').elements()).toHaveLength(0);
  });

  it('says nothing when the person closes the browser’s prompt', async () => {
    startAuthentication.mockRejectedValueOnce(
      Object.assign(new Error('closed'), { name: 'NotAllowedError' }),
    );
    const { verified } = stubServer();
    const { screen } = await renderAuthScreen(SignInPage, '/en/signin');
    const button = screen.getByRole('button', { name: 'Sign in with a passkey' });
    await button.click();
    await expect.element(button).not.toHaveAttribute('aria-busy');
    expect(screen.getByRole('alert').elements()).toHaveLength(0);
    expect(verified).toEqual([]);
  });

  it('offers no passkey in a browser without WebAuthn', async () => {
    vi.stubGlobal('PublicKeyCredential', undefined);
    const { seen } = stubServer();
    const { screen } = await renderAuthScreen(SignInPage, '/en/signin');
    await expect
      .element(screen.getByLabelText('E-mail address'))
      .toHaveAttribute('autocomplete', 'email');
    expect(screen.getByRole('button', { name: 'Sign in with a passkey' }).elements()).toHaveLength(
      0,
    );
    expect(seen.some((request) => request.url.includes('/passkeys/'))).toBe(false);
  });
});
