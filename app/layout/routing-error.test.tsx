import i18next from 'i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { renderApp } from '../test/render-app.tsx';
import { homeRoute } from '../test/site-page.ts';
import { stubFetch } from '../test/stub-fetch.ts';
import { RoutingError } from './routing-error.tsx';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function failingRouter(path: string) {
  const fail = () => {
    throw new Error('the loader broke');
  };
  return createMemoryRouter(
    [
      {
        path: '/',
        ErrorBoundary: RoutingError,
        HydrateFallback: () => null,
        children: [
          { path: 'en', loader: path === '/en' ? fail : undefined, Component: () => <p>Home</p> },
          { path: 'en/account', loader: fail, Component: () => <p>Account</p> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
}

// §2/§8 "Any routing error sends the user to /en."
describe('a routing error', () => {
  it('sends the user to /en and logs the error', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const router = failingRouter('/en/account');
    const screen = await render(<RouterProvider router={router} />);
    await expect.element(screen.getByText('Home')).toBeVisible();
    expect(router.state.location.pathname).toBe('/en');
    expect(logged).toHaveBeenCalledWith('Routing error', expect.any(Error));
  });

  it('stops at /en when /en itself fails, offering a reload instead of a loop', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const router = failingRouter('/en');
    const screen = await render(<RouterProvider router={router} />);
    const alert = screen.getByRole('alert');
    await expect.element(alert).toHaveTextContent('Something went wrong');
    await expect.element(alert.getByRole('button', { name: 'Reload' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/en');
  });

  it('takes the app from a route whose guard failed to the English home', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    // The guard switches the words to the path's language first; here that fails.
    vi.spyOn(i18next, 'changeLanguage').mockRejectedValueOnce(new Error('messages unavailable'));
    stubFetch(homeRoute);
    const { screen, router } = await renderApp('/fr/signin', null);
    await expect
      .element(screen.getByRole('heading', { level: 1 }))
      .toHaveTextContent('Private, fast and simple VPN');
    expect(router.state.location.pathname).toBe('/en');
    expect(logged).toHaveBeenCalledWith('Routing error', expect.any(Error));
  });
});
