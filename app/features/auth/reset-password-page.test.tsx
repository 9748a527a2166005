import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { clearResetValue, storeResetValue } from '../../session/browser-storage.ts';
import { renderAuthScreen } from '../../test/render-auth-screen.tsx';
import { ResetPasswordPage } from './reset-password-page.tsx';

const t = (key: string) => i18next.t(key);

afterEach(() => clearResetValue());

describe('reset-password screen', () => {
  it('without the one-time value explains why and offers a new link', async () => {
    clearResetValue();
    const { screen } = await renderAuthScreen(ResetPasswordPage, '/en/password/reset');
    await expect
      .element(screen.getByRole('heading', { level: 1 }))
      .toHaveTextContent('Choose a new password');
    await expect.element(screen.getByText(t('auth.reset.missing'))).toBeVisible();
    await expect
      .element(screen.getByRole('link', { name: 'Request a new link' }))
      .toHaveAttribute('href', '/en/password/forgot');
    await expect.element(screen.getByLabelText('New password')).not.toBeInTheDocument();
  });

  it('checks the new password and its confirmation on the way in', async () => {
    storeResetValue('challenge-from-the-link');
    const { screen } = await renderAuthScreen(ResetPasswordPage, '/en/password/reset');
    const password = screen.getByLabelText('New password');
    const confirmation = screen.getByLabelText('Confirm password');
    const save = screen.getByRole('button', { name: 'Save new password' });

    await save.click();
    await expect.element(password).toHaveAccessibleDescription(t('input_errors.field_is_required'));
    await expect
      .element(confirmation)
      .toHaveAccessibleDescription(t('input_errors.field_is_required'));
    await expect.element(password).toHaveFocus();

    await password.fill('password');
    await confirmation.fill('password');
    await save.click();
    await expect
      .element(password)
      .toHaveAccessibleDescription(t('input_errors.password_error_length'));
    // After a submit, the rules still broken are shown as errors in the checklist.
    const unmet = screen.getByRole('listitem').filter({ hasText: '(missing)' });
    expect(unmet.all()).toHaveLength(3);
    expect(unmet.first().element().className).toContain('text-red-600');

    await password.fill('correct-horse-1');
    await confirmation.fill('correct-horse-2');
    await save.click();
    await expect
      .element(confirmation)
      .toHaveAccessibleDescription(t('input_errors.passwords_dont_match'));
    await expect.element(confirmation).toHaveFocus();
  });
});
