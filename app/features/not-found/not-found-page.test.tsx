import { createMemoryRouter, RouterProvider } from 'react-router';
import { expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { NotFoundPage } from './not-found-page.tsx';

it('shows the translated 404 with a link home in the current language', async () => {
  const router = createMemoryRouter([{ path: '/:lang/*', Component: NotFoundPage }], {
    initialEntries: ['/en/nowhere'],
  });
  const screen = await render(<RouterProvider router={router} />);
  await expect.element(screen.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect
    .element(screen.getByRole('link', { name: 'Go to the home page' }))
    .toHaveAttribute('href', '/en');
});
