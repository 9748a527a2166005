import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  oauthProviderSettingsEndpoints as e,
  type OAuthProviderSettingsView,
} from '#shared/contracts/admin/oauth-providers.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';

// §2 /admin/oauth/client: each provider's settings, a secret only ever "set" or not.
const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });

const view = (
  provider: 'google' | 'apple',
  extra: Partial<OAuthProviderSettingsView> = {},
): OAuthProviderSettingsView => ({
  provider,
  enabled: false,
  source: 'none',
  issuer: provider === 'google' ? 'https://accounts.google.com' : 'https://appleid.apple.com',
  client_id: '',
  secret_set: false,
  apple_team_id: null,
  apple_key_id: null,
  callback_url: `https://vpn.example/api/public/v1/oauth-client/callback/${provider}`,
  ...extra,
});

afterEach(() => vi.unstubAllGlobals());

describe('OAuth providers screen', () => {
  it('saves Google’s keys, sends the secret once and never shows it back', async () => {
    const sent: Record<string, unknown>[] = [];
    stubFetch({
      [e.list.url]: () => jsonResponse(200, { items: [view('google'), view('apple')] }),
      [e.update.url]: async (request) => {
        const body = (await request.json()) as Record<string, unknown>;
        sent.push(body);
        return jsonResponse(200, {
          item: view('google', {
            enabled: true,
            source: 'admin',
            client_id: String(body.client_id),
            secret_set: true,
          }),
        });
      },
    });
    const { screen } = await renderApp('/en/admin/oauth/client', admin);
    const google = screen.getByRole('form', { name: 'Google settings' });
    await expect
      .element(screen.getByLabelText('Redirect URI to register with the provider').first())
      .toHaveValue('https://vpn.example/api/public/v1/oauth-client/callback/google');
    await expect
      .element(screen.getByTestId('secret-state-google'))
      .toHaveTextContent('No secret is set.');
    await google.getByLabelText('Client ID').fill('web-client.apps.googleusercontent.com');
    await google.getByLabelText('Client secret').fill('GOCSPX-typed-secret');
    await google.getByRole('button', { name: 'Save Google' }).click();

    await expect
      .element(screen.getByTestId('secret-state-google'))
      .toHaveTextContent('A secret is set.');
    await expect.element(google.getByLabelText('Client secret')).toHaveValue('');
    await expect.element(screen.getByTestId('provider-status-google')).toHaveTextContent('On');
    expect(sent).toEqual([
      {
        provider: 'google',
        enabled: true,
        client_id: 'web-client.apps.googleusercontent.com',
        issuer: 'https://accounts.google.com',
        secret: 'GOCSPX-typed-secret',
      },
    ]);
  });

  it('shows the server’s refusals under their fields, and a failed load with a retry', async () => {
    stubFetch({
      [e.list.url]: () => jsonResponse(200, { items: [view('google'), view('apple')] }),
      [e.update.url]: () =>
        jsonResponse(422, {
          code: 'validation_failed',
          errors_validation: { apple_team_id: ['input_errors.field_is_required'] },
        }),
    });
    const { screen } = await renderApp('/en/admin/oauth/client', admin);
    const apple = screen.getByRole('form', { name: 'Apple settings' });
    await apple.getByLabelText('Services ID').fill('com.example.web');
    await apple.getByRole('button', { name: 'Save Apple' }).click();
    await expect.element(apple.getByLabelText('Team ID')).toHaveAttribute('aria-invalid', 'true');

    vi.unstubAllGlobals();
    stubFetch({});
    const failed = await renderApp('/en/admin/oauth/client', admin);
    await expect.element(failed.screen.getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});
