import { describe, expect, it } from 'vitest';
import { FEATURES, type Feature } from '#shared/features.ts';
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
      'refer-friend',
      'download',
      'home',
      'home',
      'features.family-sharing',
      'billing.order2',
    ]);
  });

  it('points refer a friend home when the referral program is off', () => {
    const refer = (features: readonly Feature[]) =>
      userMenu({ features, hasSubscription: false }).find(
        (entry) => entry.label === 'menu.refer_friend',
      )?.route;
    expect(refer(['referral'])).toBe('refer-friend');
    expect(refer([])).toBe('home');
  });

  it('opens the download page (apps and WireGuard devices) from download', () => {
    const download = userMenu({ features: [], hasSubscription: false }).find(
      (entry) => entry.label === 'menu.download',
    );
    expect(download?.route).toBe('download');
    expect(download && isCurrent(download, 'download')).toBe(true);
    expect(routeByName('download').meta).toMatchObject({
      roles: ['USER'],
      onlyAuthenticated: true,
      onlyVerified: true,
      onlyNotDeactivated: true,
    });
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

// §2 "Admin menu (ordered by a sort value)", in the spec's own order, written out here.
const SPEC_ADMIN_MENU = [
  'admin.dashboard',
  'admin.customers',
  'admin.statistics.earnings.overview',
  'admin.statistics.subscriptions.overview',
  'admin.statistics.analytics',
  'admin.servers.countries',
  'admin.servers.servers-list',
  'admin.servers.all-servers',
  'admin.payment-gateways.stripe.products',
  'admin.payment-gateways.paypal.products',
  'admin.payment-gateways.iap.products',
  'admin.payment-gateways.cryptomus.products',
  'admin.payment-gateways.addons.modules',
  'admin.order.manage-plans.stripe',
  'admin.coupons.overview',
  'admin.blog.posts.overview',
  'admin.blog.categories.overview',
  'admin.help-center.articles.overview',
  'admin.help-center.categories.overview',
  'admin.pages.overview',
  'admin.faq.list.overview',
  'admin.staticPages.overview',
  'admin.oauth.clients',
  'admin.oauth.servers',
  'admin.seo.main-pages',
  'admin.seo.categories',
  'admin.seo.posts',
  'admin.seo.articles',
  'admin.notifications.email-lists',
  'admin.logs',
  'admin.account.profile',
];

describe('admin menu (§2)', () => {
  it("shows an admin every entry in the spec's order, each naming a real route", () => {
    const menu = adminMenu('ADMIN', FEATURES);
    expect(menu.map((entry) => entry.route)).toEqual(SPEC_ADMIN_MENU);
    const sorts = menu.map((entry) => entry.sort);
    expect(sorts).toEqual([...sorts].sort((a, b) => a - b));
    expect(new Set(sorts).size).toBe(sorts.length);
    for (const entry of menu) expect(routeByName(entry.route), entry.route).toBeDefined();
  });

  it('shows an author the content sections, in the same order', () => {
    const routes = adminMenu('AUTHOR', FEATURES).map((entry) => entry.route);
    expect(routes).toEqual([
      'admin.dashboard',
      'admin.blog.posts.overview',
      'admin.blog.categories.overview',
      'admin.help-center.articles.overview',
      'admin.help-center.categories.overview',
      'admin.pages.overview',
      'admin.faq.list.overview',
      'admin.staticPages.overview',
      'admin.seo.main-pages',
      'admin.seo.categories',
      'admin.seo.posts',
      'admin.seo.articles',
      'admin.account.profile',
    ]);
  });

  it('gives a customer nothing', () => {
    expect(adminMenu('USER', FEATURES)).toEqual([]);
  });

  it('hides customers without the users flag and logs without the logging flag (§1)', () => {
    const without = (flag: Feature) =>
      adminMenu(
        'ADMIN',
        FEATURES.filter((feature) => feature !== flag),
      ).map((e) => e.route);
    expect(without('users')).toEqual(SPEC_ADMIN_MENU.filter((r) => r !== 'admin.customers'));
    expect(without('logging')).toEqual(SPEC_ADMIN_MENU.filter((r) => r !== 'admin.logs'));
  });
});
