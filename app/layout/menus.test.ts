import { describe, expect, it } from 'vitest';
import { FEATURES } from '#shared/features.ts';
import { routeByName } from '../routes/route-table.ts';
import { adminMenu, isCurrent, userMenu } from './menus.ts';

describe('user menu (§2)', () => {
  it('lists the entries in sort order with billing and family sharing when both flags are on', () => {
    const menu = userMenu({ features: FEATURES, hasSubscription: false });
    expect(menu.map((entry) => entry.route)).toEqual([
      'dashboard',
      'account.profile',
      'account.security',
      'account.notifications',
      'home',
      'home',
      'home',
      'home',
      'home',
      'features.family-sharing',
      'billing.order2',
    ]);
  });

  it('points billing at membership when a subscription exists', () => {
    const menu = userMenu({ features: ['billing'], hasSubscription: true });
    expect(menu.at(-1)?.route).toBe('billing.membership2');
  });

  it('hides billing and family sharing when their flags are off', () => {
    const routes = userMenu({ features: [], hasSubscription: true }).map((entry) => entry.route);
    expect(routes).not.toContain('features.family-sharing');
    expect(routes.some((route) => route.startsWith('billing'))).toBe(false);
  });

  it('keeps the billing children hidden but current', () => {
    const billing = userMenu({ features: ['billing'], hasSubscription: false }).at(-1);
    expect(billing?.children?.every((child) => child.hidden)).toBe(true);
    expect(billing && isCurrent(billing, 'billing.invoices')).toBe(true);
  });
});

describe('admin menu (§2)', () => {
  it('shows every entry to an admin, sorted, each naming a real route', () => {
    const menu = adminMenu('ADMIN');
    expect(menu).toHaveLength(31);
    expect(menu.map((entry) => entry.sort)).toEqual(
      [...menu.map((e) => e.sort)].sort((a, b) => a - b),
    );
    for (const entry of menu) expect(routeByName(entry.route), entry.route).toBeDefined();
    expect(menu[0]?.route).toBe('admin.dashboard');
  });

  it('shows an author only the content sections', () => {
    const routes = adminMenu('AUTHOR').map((entry) => entry.route);
    expect(routes).toContain('admin.blog.posts.overview');
    expect(routes).toContain('admin.account.profile');
    expect(routes).not.toContain('admin.customers');
    expect(routes).not.toContain('admin.logs');
  });

  it('gives a customer nothing', () => {
    expect(adminMenu('USER')).toEqual([]);
  });
});
