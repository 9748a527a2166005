import { describe, expect, it } from 'vitest';
import { testUser } from '../../test/render-app.tsx';
import { renderAuthScreen } from '../../test/render-auth-screen.tsx';
import { VerifyEmailPage } from './verify-email-page.tsx';

describe('e-mail verification screen without a challenge', () => {
  it('names the address the link went to and offers resend and sign out', async () => {
    const user = testUser({ activated: false, email: 'new.user@example.com' });
    const { screen } = await renderAuthScreen(VerifyEmailPage, '/en/email/verify', user);
    await expect
      .element(screen.getByRole('heading', { level: 1 }))
      .toHaveTextContent('Verify your e-mail address');
    await expect
      .element(screen.getByTestId('verify-sent-to'))
      .toHaveTextContent('We sent a link to new.user@example.com.');
    await expect.element(screen.getByRole('button', { name: 'Resend the link' })).toBeVisible();
    await expect.element(screen.getByRole('button', { name: 'Sign out' })).toBeVisible();
  });
});
