import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_BASES } from '#shared/api-bases.ts';
import { renderApp, testUser } from '../test/render-app.tsx';
import { errorResponse, jsonResponse, stubFetch } from '../test/stub-fetch.ts';
import { checkAuth } from './auth-check.ts';
import { storedUser, storeUser } from './browser-storage.ts';
import { getSession, resetSession } from './session-store.ts';

const ACCOUNT_USER = `${API_BASES.account}/users/get-auth-user`;
const STAFF_USER = `${API_BASES.dashboard}/users/get-auth-user`;

afterEach(() => {
  vi.unstubAllGlobals();
});

// §2 "On first navigation, when a user is known, an authentication check (user fetch) is
// made. If it fails, the user goes to /{lang}/signin."
describe('the first-navigation auth check', () => {
  // First in the file: the check runs once per page load, and this is that load.
  it('sends a known user whose check fails to sign in, in the path language', async () => {
    storeUser(testUser());
    const seen = stubFetch({ [ACCOUNT_USER]: () => errorResponse(401, 'unauthenticated') });
    const { screen, router } = await renderApp('/es/account/profile', null);
    await expect.poll(() => router.state.location.pathname, { timeout: 10_000 }).toBe('/es/signin');
    await expect
      .element(screen.getByRole('heading', { level: 1 }))
      .toHaveTextContent('Iniciar sesión');
    expect(new URL(seen[0]?.url ?? '/').pathname).toBe(ACCOUNT_USER);
    expect(storedUser()).toBeNull();
  });

  it('fetches the known user and keeps them signed in', async () => {
    storeUser(testUser());
    resetSession();
    const seen = stubFetch({
      [ACCOUNT_USER]: () => jsonResponse(200, { user: testUser({ name: 'Ann Fresh' }) }),
    });
    await expect(checkAuth()).resolves.toBe(true);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe('POST');
    expect(getSession().user?.name).toBe('Ann Fresh');
    expect(storedUser()).toEqual({ id: 1, role: 'USER' });
  });

  it('asks the dashboard base for staff', async () => {
    storeUser(testUser({ role: 'AUTHOR' }));
    resetSession();
    const seen = stubFetch({
      [STAFF_USER]: () => jsonResponse(200, { user: testUser({ role: 'AUTHOR' }) }),
    });
    await expect(checkAuth()).resolves.toBe(true);
    expect(seen.map((request) => new URL(request.url).pathname)).toEqual([STAFF_USER]);
  });

  it('forgets the stored user when the check fails, even for a network failure', async () => {
    storeUser(testUser());
    resetSession();
    stubFetch({});
    await expect(checkAuth()).resolves.toBe(false);
    expect(storedUser()).toBeNull();
    expect(getSession().user).toBeNull();
  });

  it('asks nothing when no user is known', async () => {
    resetSession();
    const seen = stubFetch({});
    await expect(checkAuth()).resolves.toBe(true);
    expect(seen).toHaveLength(0);
  });
});
