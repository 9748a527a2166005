import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { oauthEndpoints } from '#shared/contracts/oauth.ts';
import { passkeyEndpoints } from '#shared/contracts/passkeys.ts';
import { TEST_CONFIG } from '../../test/render-app.tsx';
import { renderAuthScreen } from '../../test/render-auth-screen.tsx';
import { jsonResponse, stubFetch } from '../../test/stub-fetch.ts';
import { SignInPage } from './sign-in-page.tsx';

const t = (key: string) => i18next.t(key);

describe('sign-in screen', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('offers social sign-in with the auth flag on (§1)', async () => {
    const providers = {
      items: [{ id: 'google', name: 'Google', href: oauthEndpoints.authorize.url }],
      controls: { page: 1, per_page: 20, total: 1, last_page: 1 },
    };
    stubFetch({ [oauthEndpoints.providers.url]: () => jsonResponse(200, providers) });
    const { screen } = await renderAuthScreen(SignInPage, '/en/signin');
    await expect.element(screen.getByRole('button', { name: /Google/ })).toBeVisible();
  });

  it('offers neither sign-up nor social sign-in with the auth flag off (§1)', async () => {
    const seen = stubFetch({});
    const features = TEST_CONFIG.features.filter((feature) => feature !== 'auth');
    const { screen } = await renderAuthScreen(SignInPage, '/en/signin', null, {
      ...TEST_CONFIG,
      features,
    });
    await expect.element(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Log in');
    expect(screen.getByRole('link', { name: 'Create an account' }).elements()).toHaveLength(0);
    // Passkeys are not the `auth` flag's: the browser's autofill still asks for a challenge.
    expect(
      seen.filter((request) => !request.url.includes(passkeyEndpoints.signInOptions.url)),
    ).toHaveLength(0);
  });

  it('has one heading, labelled fields and links to the neighbouring screens', async () => {
    const { screen } = await renderAuthScreen(SignInPage, '/en/signin');
    await expect.element(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Log in');
    expect(screen.getByRole('heading').all()).toHaveLength(1);
    // The browser's autofill offers this site's passkeys too (Chromium has WebAuthn).
    await expect
      .element(screen.getByLabelText('E-mail address'))
      .toHaveAttribute('autocomplete', 'username webauthn');
    await expect
      .element(screen.getByLabelText('Password'))
      .toHaveAttribute('autocomplete', 'current-password');
    await expect
      .element(screen.getByRole('link', { name: 'Forgot password?' }))
      .toHaveAttribute('href', '/en/password/forgot');
    await expect
      .element(screen.getByRole('link', { name: 'Create an account' }))
      .toHaveAttribute('href', '/en/signup');
  });

  it('says each empty field is required and focuses the first one', async () => {
    const { screen } = await renderAuthScreen(SignInPage, '/en/signin');
    await screen.getByRole('button', { name: 'Log in' }).click();
    const email = screen.getByLabelText('E-mail address');
    const password = screen.getByLabelText('Password');
    await expect.element(email).toHaveAttribute('aria-invalid', 'true');
    await expect.element(email).toHaveAccessibleDescription(t('input_errors.field_is_required'));
    await expect.element(password).toHaveAttribute('aria-invalid', 'true');
    await expect.element(password).toHaveAccessibleDescription(t('input_errors.field_is_required'));
    await expect.element(email).toHaveFocus();
    await expect.element(screen.getByTestId('elsewhere')).not.toBeInTheDocument();
  });

  it('checks the e-mail format and the password length, focusing what is wrong', async () => {
    const { screen } = await renderAuthScreen(SignInPage, '/en/signin');
    const email = screen.getByLabelText('E-mail address');
    const password = screen.getByLabelText('Password');
    await email.fill('ann@example');
    await password.fill('short');
    await screen.getByRole('button', { name: 'Log in' }).click();
    await expect.element(email).toHaveAccessibleDescription(t('input_errors.email_is_incorrect'));
    await expect
      .element(password)
      .toHaveAccessibleDescription(t('input_errors.password_error_length'));
    await expect.element(email).toHaveFocus();

    // Fixed as the user types (§5 messages follow the value after the first submit).
    await email.fill('ann@example.com');
    await expect.element(email).not.toHaveAttribute('aria-invalid');
    await screen.getByRole('button', { name: 'Log in' }).click();
    await expect.element(password).toHaveFocus();
  });

  it('keeps the button where it was when messages appear under the fields', async () => {
    const { screen } = await renderAuthScreen(SignInPage, '/en/signin');
    const button = screen.getByRole('button', { name: 'Log in' });
    const before = button.element().getBoundingClientRect().top;
    await button.click();
    await expect.element(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(button.element().getBoundingClientRect().top).toBe(before);
  });
});
