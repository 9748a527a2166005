import { describe, expect, it } from 'vitest';
import { renderApp, testUser } from '../../test/render-app.tsx';

// The screens as the router opens them: registered by route name, behind the real guards.
describe('auth screens in the app', () => {
  it.each([
    ['/en/signin', 'Log in'],
    ['/en/signup', 'Create your account'],
    ['/en/password/forgot', 'Forgot your password?'],
  ])('%s opens for a visitor', async (path, heading) => {
    const { screen } = await renderApp(path, null);
    await expect.element(screen.getByRole('heading', { level: 1 })).toHaveTextContent(heading);
  });

  it('keeps an unverified user on the verification screen', async () => {
    const { screen } = await renderApp('/en/dashboard', testUser({ activated: false }));
    await expect
      .element(screen.getByRole('heading', { level: 1 }))
      .toHaveTextContent('Verify your e-mail address');
    await expect.element(screen.getByText('ann@example.com')).toBeVisible();
  });
});
