import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { testUser } from '../../test/render-app.tsx';
import { renderAuthScreen } from '../../test/render-auth-screen.tsx';
import { SetPasswordPage } from './set-password-page.tsx';

const t = (key: string) => i18next.t(key);

describe('set-password screen', () => {
  it('checks the password pair before sending it', async () => {
    const { screen } = await renderAuthScreen(
      SetPasswordPage,
      '/en/password/set?challenge=abc',
      testUser(),
    );
    await expect
      .element(screen.getByRole('heading', { level: 1 }))
      .toHaveTextContent('Set your password');
    const password = screen.getByLabelText('New password');
    await screen.getByRole('button', { name: 'Save password' }).click();
    await expect.element(password).toHaveAccessibleDescription(t('input_errors.field_is_required'));
    await expect.element(password).toHaveFocus();
    await password.fill('abcdefgh1!');
    await expect
      .poll(() => screen.getByRole('listitem').filter({ hasText: '(done)' }).all().length)
      .toBe(4);
  });
});
