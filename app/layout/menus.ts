import type { Feature } from '#shared/features.ts';
import type { Role } from '#shared/roles.ts';
import { type RouteName, routeByName } from '../routes/route-table.ts';
import type { IconName } from './icon.tsx';

/** §3 Menu item: label, route name, sort order, optional children, hidden flag, icon. */
export interface MenuItem {
  /** i18n key of the label. */
  label: string;
  route: RouteName;
  sort: number;
  icon: IconName;
  hidden?: boolean;
  children?: MenuItem[];
}

const item = (label: string, route: RouteName, sort: number, icon: IconName): MenuItem => ({
  label,
  route,
  sort,
  icon,
});

// §2 Billing's children are hidden: they open from the billing screens, not the menu, but
// they keep the billing entry marked as current.
const BILLING_CHILDREN: readonly RouteName[] = [
  'billing.membership2',
  'billing.order2',
  'billing.upgrade2',
  'billing.bonus-upgrade',
  'billing.fix-payment-method',
  'billing.payment-methods',
  'billing.invoices',
];

export interface UserMenuOptions {
  features: readonly Feature[];
  hasSubscription: boolean;
}

/**
 * §2 User menu. Breach monitor, help center and support point home; refer a friend opens its
 * page while the referral program is on; download opens the apps and the WireGuard devices.
 */
export function userMenu({ features, hasSubscription }: UserMenuOptions): MenuItem[] {
  const items = [
    item('menu.dashboard', 'dashboard', 10, 'dashboard'),
    item('menu.profile', 'account.profile', 20, 'user'),
    item('menu.security', 'account.security', 30, 'shield'),
    item('menu.notifications', 'account.notifications', 40, 'bell'),
    item('menu.breach_monitor', 'home', 50, 'radar'),
    item('menu.refer_friend', features.includes('referral') ? 'refer-friend' : 'home', 60, 'gift'),
    item('menu.download', 'download', 70, 'download'),
    item('menu.help_center', 'home', 80, 'help'),
    item('menu.support', 'home', 90, 'chat'),
  ];
  if (features.includes('family_sharing')) {
    items.push(item('menu.family_sharing', 'features.family-sharing', 100, 'users'));
  }
  if (features.includes('billing')) {
    const billing = item(
      'menu.billing',
      hasSubscription ? 'billing.membership2' : 'billing.order2',
      110,
      'card',
    );
    billing.children = BILLING_CHILDREN.map((route, index) => ({
      ...item('menu.billing', route, index, 'card'),
      hidden: true,
    }));
    items.push(billing);
  }
  return items.sort((a, b) => a.sort - b.sort);
}

const ADMIN_ITEMS: [label: string, route: RouteName, icon: IconName][] = [
  ['dashboard', 'admin.dashboard', 'dashboard'],
  ['customers', 'admin.customers', 'users'],
  ['earnings', 'admin.statistics.earnings.overview', 'chart'],
  ['subscriptions', 'admin.statistics.subscriptions.overview', 'chart'],
  ['analytics', 'admin.statistics.analytics', 'chart'],
  ['countries', 'admin.servers.countries', 'globe'],
  ['servers_list', 'admin.servers.servers-list', 'server'],
  ['all_servers', 'admin.servers.all-servers', 'server'],
  ['stripe_products', 'admin.payment-gateways.stripe.products', 'card'],
  ['paypal_products', 'admin.payment-gateways.paypal.products', 'card'],
  ['iap_products', 'admin.payment-gateways.iap.products', 'card'],
  ['cryptomus_products', 'admin.payment-gateways.cryptomus.products', 'card'],
  ['addon_modules', 'admin.payment-gateways.addons.modules', 'puzzle'],
  ['manage_plans', 'admin.order.manage-plans.stripe', 'list'],
  ['coupons', 'admin.coupons.overview', 'gift'],
  ['blog_posts', 'admin.blog.posts.overview', 'pen'],
  ['blog_categories', 'admin.blog.categories.overview', 'folder'],
  ['help_articles', 'admin.help-center.articles.overview', 'help'],
  ['help_categories', 'admin.help-center.categories.overview', 'folder'],
  ['pages', 'admin.pages.overview', 'page'],
  ['faq', 'admin.faq.list.overview', 'help'],
  ['static_pages', 'admin.staticPages.overview', 'page'],
  ['oauth_clients', 'admin.oauth.clients', 'key'],
  ['oauth_servers', 'admin.oauth.servers', 'key'],
  ['seo_main_pages', 'admin.seo.main-pages', 'search'],
  ['seo_categories', 'admin.seo.categories', 'search'],
  ['seo_posts', 'admin.seo.posts', 'search'],
  ['seo_articles', 'admin.seo.articles', 'search'],
  ['email_lists', 'admin.notifications.email-lists', 'bell'],
  ['logs', 'admin.logs', 'list'],
  ['account', 'admin.account.profile', 'user'],
];

/**
 * §2 Admin menu, ordered by its sort value, showing only what the role may open (authors
 * see the content sections) and what the feature flags keep on (§1 users, logging). The
 * spec's Settings and Addons entries have no target, so they are not offered. Its labels
 * are admin texts, loaded with the admin screens.
 */
export function adminMenu(role: Role, features: readonly Feature[]): MenuItem[] {
  return ADMIN_ITEMS.map(([label, route, icon], index) =>
    item(`staff.menu.${label}`, route, (index + 1) * 10, icon),
  )
    .filter((entry) => {
      const target = routeByName(entry.route);
      const opens = target.redirect ? routeByName(target.redirect)?.meta : target.meta;
      if (!opens?.roles.includes(role)) return false;
      return !opens.feature || features.includes(opens.feature);
    })
    .sort((a, b) => a.sort - b.sort);
}

/** The menu entry the current route belongs to (itself, or a hidden child of it). */
export function isCurrent(entry: MenuItem, routeName: RouteName): boolean {
  if (entry.route === routeName && entry.route !== 'home') return true;
  return entry.children?.some((child) => child.route === routeName) ?? false;
}
