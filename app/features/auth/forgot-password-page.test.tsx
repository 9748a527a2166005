import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { renderAuthScreen } from '../../test/render-auth-screen.tsx';
import { ForgotPasswordPage } from './forgot-password-page.tsx';

const t = (key: string) => i18next.t(key);

describe('forgot-password screen', () => {
  it('asks for a well-formed e-mail address before sending anything', async () => {
    const { screen } = await renderAuthScreen(ForgotPasswordPage, '/en/password/forgot');
    await expect
      .element(screen.getByRole('heading', { level: 1 }))
      .toHaveTextContent('Forgot your password?');
    const email = screen.getByLabelText('E-mail address');
    const send = screen.getByRole('button', { name: 'Send reset link' });
    await send.click();
    await expect.element(email).toHaveAccessibleDescription(t('input_errors.field_is_required'));
    await expect.element(email).toHaveFocus();
    await email.fill('not an address');
    await send.click();
    await expect.element(email).toHaveAccessibleDescription(t('input_errors.email_is_incorrect'));
    await expect.element(screen.getByTestId('forgot-sent')).not.toBeInTheDocument();
    await expect
      .element(screen.getByRole('link', { name: 'Back to log in' }))
      .toHaveAttribute('href', '/en/signin');
  });
});
