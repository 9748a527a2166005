import { createMemoryRouter, RouterProvider } from 'react-router';
import { render } from 'vitest-browser-react';
import type { AppConfig } from '#shared/contracts/app-config.ts';
import type { AuthUser } from '#shared/contracts/auth-user.ts';
import { FEATURES } from '#shared/features.ts';
import { LANGS } from '#shared/locales.ts';
import { AppConfigContext } from '../lib/app-config-context.ts';
import { appRoutes } from '../router.tsx';
import { resetSession, type SessionState, updateSession } from '../session/session-store.ts';

export { testUser } from './test-user.ts';

export const TEST_CONFIG: AppConfig = {
  defaultLocale: 'en',
  locales: [...LANGS],
  features: [...FEATURES],
  accountBasePath: '/account',
  // No key: component tests run without live updates (there is no realtime server).
  realtime: { key: '', host: null, port: null, tls: false, cluster: 'mt1' },
};

/**
 * The real route table, guards and shell in a memory router, with the given user already
 * signed in (no subscription, so nothing is fetched, unless `session` says otherwise).
 */
export async function renderApp(
  path: string,
  user: AuthUser | null,
  config = TEST_CONFIG,
  session: Partial<SessionState> = {},
) {
  resetSession();
  updateSession({
    user,
    subscription: { current: null, lastInvoiceFinalizing: false },
    ...session,
  });
  const router = createMemoryRouter(appRoutes(config), { initialEntries: [path] });
  const screen = await render(
    <AppConfigContext value={config}>
      <RouterProvider router={router} />
    </AppConfigContext>,
  );
  return { screen, router };
}
