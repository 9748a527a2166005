import type { ComponentType } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { render } from 'vitest-browser-react';
import type { AppConfig } from '#shared/contracts/app-config.ts';
import type { AuthUser } from '#shared/contracts/auth-user.ts';
import { AppConfigContext } from '../lib/app-config-context.ts';
import { resetSession, updateSession } from '../session/session-store.ts';
import { TEST_CONFIG } from './render-app.tsx';

/**
 * One auth screen on its own in a memory router (no guards, no shell), for tests of what
 * the screen does before it calls the server. Every other path renders a marker.
 */
export async function renderAuthScreen(
  Screen: ComponentType,
  path: string,
  user: AuthUser | null = null,
  config: AppConfig = TEST_CONFIG,
) {
  resetSession();
  updateSession({ user });
  const [pathname = ''] = path.split('?');
  const router = createMemoryRouter(
    [
      { path: pathname.replace(/^\/[a-z]{2}\//, '/:lang/'), Component: Screen },
      { path: '*', Component: () => <p data-testid="elsewhere">elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  const screen = await render(
    <AppConfigContext value={config}>
      <RouterProvider router={router} />
    </AppConfigContext>,
  );
  return { screen, router };
}
