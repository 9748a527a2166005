import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { renderAuthScreen } from './render-auth-screen.tsx';
import { SignInPage } from './sign-in-page.tsx';

const t = (key: string) => i18next.t(key);

describe('sign-in screen', () => {
  it('has one heading, labelled fields and links to the neighbouring screens', async () => {
    const { screen } = await renderAuthScreen(SignInPage, '/en/signin');
    await expect.element(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Log in');
    expect(screen.getByRole('heading').all()).toHaveLength(1);
    await expect
      .element(screen.getByLabelText('E-mail address'))
      .toHaveAttribute('autocomplete', 'email');
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
