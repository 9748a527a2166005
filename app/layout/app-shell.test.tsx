import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { renderApp, testUser } from '../test/render-app.tsx';

afterEach(async () => {
  await page.viewport(1280, 800);
});

describe('page shell per role (§2 menus)', () => {
  it('gives a customer the user menu with billing to the order page', async () => {
    const { screen } = await renderApp('/en/dashboard', testUser());
    const aside = screen.getByTestId('aside');
    await expect.element(aside).toBeVisible();
    const links = aside.getByTestId('menu').getByRole('link');
    expect(links.elements().map((link) => link.textContent)).toEqual([
      'Dashboard',
      'Profile',
      'Security',
      'Notifications',
      'Breach monitor',
      'Refer a friend',
      'Download',
      'Help center',
      'Support',
      'Family sharing',
      'Billing',
    ]);
    await expect
      .element(aside.getByRole('link', { name: 'Billing' }))
      .toHaveAttribute('href', '/en/billing/order-v2');
    await expect
      .element(aside.getByRole('link', { name: 'Dashboard' }))
      .toHaveAttribute('aria-current', 'page');
  });

  it('gives an admin the whole admin menu', async () => {
    const { screen } = await renderApp('/en/admin/dashboard', testUser({ role: 'ADMIN' }));
    const links = screen.getByTestId('menu').getByRole('link');
    await expect.element(links.first()).toHaveTextContent('Dashboard');
    expect(links.elements()).toHaveLength(31);
    const menu = screen.getByTestId('menu');
    await expect.element(menu.getByRole('link', { name: 'Customers' })).toBeVisible();
  });

  it('gives an author only the content sections', async () => {
    const { screen } = await renderApp('/en/admin/dashboard', testUser({ role: 'AUTHOR' }));
    // The menu, not the dashboard's own links to the same areas.
    const menu = screen.getByTestId('menu');
    await expect.element(menu.getByRole('link', { name: 'Blog posts' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Customers' }).elements()).toHaveLength(0);
  });

  it('shows the avatar with the name, or @username without one, and the role menu', async () => {
    const { screen } = await renderApp('/en/dashboard', testUser({ name: null }));
    const avatar = screen.getByTestId('avatar-button');
    await expect.element(avatar).toHaveTextContent('@ann');
    await avatar.click();
    const menu = screen.getByRole('menu');
    await expect.element(menu.getByRole('menuitem', { name: 'Profile Settings' })).toBeVisible();
    await expect.element(menu.getByRole('menuitem', { name: 'Sign out' })).toBeVisible();
    await expect.element(menu.getByRole('menuitem').first()).toHaveFocus();
  });

  it('hides the aside below 768 px and offers the burger', async () => {
    await page.viewport(375, 740);
    const { screen } = await renderApp('/en/dashboard', testUser());
    expect(screen.getByTestId('aside').elements()).toHaveLength(0);
    await screen.getByTestId('burger').click();
    await expect.element(screen.getByTestId('mobile-menu')).toBeVisible();
    await expect
      .element(screen.getByTestId('mobile-menu').getByRole('link', { name: 'Security' }))
      .toBeVisible();
  });

  it('hides Log In on the sign-in page and shows it elsewhere', async () => {
    const { screen, router } = await renderApp('/en/signin', null);
    await expect.element(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Log in');
    expect(screen.getByTestId('login-link').elements()).toHaveLength(0);
    await router.navigate('/en');
    await expect.element(screen.getByTestId('login-link')).toBeVisible();
  });

  it('sends a customer on an admin route to page-not-found', async () => {
    const { screen, router } = await renderApp('/en/admin/customers', testUser());
    await expect.element(screen.getByTestId('page-not-found')).toBeVisible();
    expect(router.state.location.pathname).toBe('/en/page-not-found');
  });
});
