import { describe, expect, it } from 'vitest';
import { renderAuthScreen } from '../../test/render-auth-screen.tsx';
import { UnavailableScreen } from './unavailable-screen.tsx';

// Every screen of §2 is built, so no route of the app shows this page today; it stays for a
// route added before its screen: a real page in the shell, never a blank one.
describe('the "not available yet" page', () => {
  it('names the screen, says it comes in a later release and leads home', async () => {
    const { screen } = await renderAuthScreen(
      () => <UnavailableScreen name="admin.oauth.clients" />,
      '/en/admin/oauth/server',
    );
    await expect
      .element(screen.getByRole('heading', { level: 1 }))
      .toHaveTextContent('OAuth clients');
    await expect
      .element(screen.getByTestId('screen-unavailable'))
      .toHaveTextContent('not available yet');
    await expect.element(screen.getByRole('link')).toHaveAttribute('href', '/en');
  });
});
