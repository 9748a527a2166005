import { describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { renderApp, testUser } from '../../test/render-app.tsx';

// The account screens as the router opens them, behind the real guards.
describe('account screens', () => {
  it('shows the profile with Save enabled only once something changed (§5)', async () => {
    const { screen } = await renderApp('/en/account/profile', testUser());
    await expect
      .element(screen.getByRole('heading', { level: 1 }))
      .toHaveTextContent('Account settings');
    const tabs = screen.getByRole('navigation', { name: 'Account settings sections' });
    await expect
      .element(tabs.getByRole('link', { name: 'Profile' }))
      .toHaveAttribute('aria-current', 'page');
    const save = screen.getByRole('button', { name: 'Save changes' });
    await expect.element(save).toBeDisabled();
    await screen.getByLabelText('Name (optional)').fill('Ann Marie Lee');
    await expect.element(save).toBeEnabled();
    await screen.getByLabelText('Username').fill('');
    await save.click();
    await expect
      .element(screen.getByLabelText('Username'))
      .toHaveAccessibleDescription('This field is required.');
  });

  it('announces a pending e-mail change with resend and cancel', async () => {
    const { screen } = await renderApp(
      '/en/account/profile',
      testUser({ email_tmp: 'new@example.com' }),
    );
    await expect
      .element(screen.getByTestId('email-change-notice'))
      .toHaveTextContent('new@example.com');
    await expect.element(screen.getByRole('button', { name: 'Resend link' })).toBeVisible();
    await expect.element(screen.getByLabelText('E-mail address')).toHaveValue('new@example.com');
  });

  it('refuses a picture over 20 MB before sending it, on the subtitle (§5)', async () => {
    const { screen } = await renderApp('/en/account/profile', testUser());
    const input = screen.getByTestId('photo-input');
    const big = new File([new Uint8Array(20 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    await userEvent.upload(input, big);
    await expect.element(screen.getByTestId('photo-error')).toHaveTextContent('larger than 20 MB');
  });

  it.each([
    [{}, 'off', 'Set up'],
    [{ two_factor_authentication: true }, 'unconfirmed', 'Finish setup'],
    [
      { two_factor_authentication: true, two_factor_authentication_confirmed: true },
      'on',
      'Turn off',
    ],
  ])('shows two-factor state %j as %s (§4)', async (overrides, state, button) => {
    const { screen } = await renderApp('/en/account/security', testUser(overrides));
    await expect
      .element(screen.getByTestId('two-factor-state'))
      .toHaveAttribute('data-state', state);
    await expect.element(screen.getByRole('button', { name: button })).toBeVisible();
  });

  it('offers a link to set a password to an account made through social sign-in', async () => {
    const { screen } = await renderApp('/en/account/security', testUser({ has_password: false }));
    await expect.element(screen.getByRole('button', { name: 'E-mail me a link' })).toBeVisible();
    await expect.element(screen.getByLabelText('Current password')).not.toBeInTheDocument();
  });

  it('asks for the password before deleting the account, required (§5)', async () => {
    const { screen } = await renderApp('/en/account/security', testUser());
    await screen.getByRole('button', { name: 'Delete account' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    await expect.element(dialog).toBeVisible();
    expect(document.body.classList.contains('modal-opened')).toBe(true);
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await expect
      .element(dialog.getByLabelText('Password'))
      .toHaveAccessibleDescription('This field is required.');
  });

  it('sends staff to the same screens under /admin/account', async () => {
    const { screen } = await renderApp('/en/admin/account/security', testUser({ role: 'ADMIN' }));
    const tabs = screen.getByRole('navigation', { name: 'Account settings sections' });
    await expect
      .element(tabs.getByRole('link', { name: 'Security' }))
      .toHaveAttribute('href', '/en/admin/account/security');
    await expect
      .element(screen.getByRole('heading', { name: 'Two-factor authentication' }))
      .toBeVisible();
  });

  it('keeps a deactivated user on the reactivation page with the deletion date (§4, §6)', async () => {
    const { screen, router } = await renderApp(
      '/en/account/profile',
      testUser({ delete_at: '2030-01-15T10:00:00.000Z' }),
    );
    await expect
      .element(screen.getByRole('heading', { level: 1 }))
      .toHaveTextContent('Reactivate your account');
    expect(router.state.location.pathname).toBe('/en/reactivate');
    await expect.element(screen.getByTestId('delete-at')).toHaveTextContent('January 15, 2030');
  });
});
