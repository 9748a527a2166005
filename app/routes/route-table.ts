import type { Role } from '#shared/roles.ts';
import type { Area, HeaderType, RouteDef, RouteMeta } from './route-meta.ts';

// §2 The whole route table: every screen, its name and its guard meta. Paths are below
// `/{lang}/`. The router, the guards, the menus and the sign-in `continue` parameter all
// read this one list.

const EVERYONE: readonly Role[] = ['USER', 'ADMIN', 'AUTHOR', 'PUBLIC'];
const SIGNED_IN: readonly Role[] = ['USER', 'ADMIN', 'AUTHOR'];
const STAFF: readonly Role[] = ['ADMIN', 'AUTHOR'];

const open: RouteMeta = { roles: EVERYONE };
const visitorOnly: RouteMeta = { roles: EVERYONE, onlyNotLoggedIn: true };
const customer: RouteMeta = {
  roles: ['USER'],
  onlyAuthenticated: true,
  onlyVerified: true,
  onlyNotDeactivated: true,
};
// Billing opens before the e-mail is verified: a visitor can pay on the order page first.
const billing: RouteMeta = { roles: ['USER'], onlyAuthenticated: true, onlyNotDeactivated: true };
const staff: RouteMeta = { ...customer, roles: STAFF };
// §6 "Some admin routes are admin-only with an empty author list": authors edit content only.
const adminOnly: RouteMeta = { ...customer, roles: ['ADMIN'] };

function define(area: Area, header: HeaderType) {
  return (name: string, path: string, meta: RouteMeta | null, extra?: Partial<RouteDef>) =>
    ({ name, path, meta, area, header, ...extra }) satisfies RouteDef;
}

const landing = define('public', 'landing');
const plain = define('public', 'plain');
const account = define('account', 'app');
const shop = define('billing', 'app');
const shopLanding = define('billing', 'landing');
const admin = define('admin', 'app');

const forward = (target: string) => ({ redirect: target });

/** `admin.payment-gateways.{gateway}` with its products list and product detail. */
function gateway(key: string) {
  const base = `admin.payment-gateways.${key}`;
  const path = `admin/payment-gateways/${key}`;
  return [
    admin(base, path, adminOnly, forward(`${base}.products`)),
    admin(`${base}.products`, `${path}/products`, adminOnly),
    admin(`${base}.product`, `${path}/products/:product_id`, adminOnly),
  ];
}

export const ROUTES: readonly RouteDef[] = [
  // Public
  landing('home', '', { ...open, awaitSubscription: true }),
  plain('signin', 'signin', visitorOnly),
  plain('signup', 'signup', visitorOnly),
  plain('password.forgot', 'password/forgot', visitorOnly),
  plain('password.forgot.verify', 'password/forgot/verify', {
    ...visitorOnly,
    challenge: { required: true, checks: ['email', 'token'], missingFallback: 'password.forgot' },
    access: 'password.forgotVerify',
  }),
  plain('password.reset', 'password/reset', { ...visitorOnly, access: 'password.reset' }),
  plain('familysharing.invite.verify', 'familysharing/invite/verify', {
    ...open,
    challenge: { required: true, checks: ['email', 'token', 'tokenValid'] },
  }),
  landing('page-not-found', 'page-not-found', open),
  // Where Google and Apple send the sign-in popup back (shared/contracts/oauth.ts).
  plain('oauth.callback', 'oauth/callback', open),
  // §2 "/r/{id} is a referral join link"; guard priority 2 turns it into the order page.
  landing('referral', 'r/:id', open),
  shopLanding('order2', 'order-v2', {
    roles: ['USER', 'PUBLIC'],
    onlyNotDeactivated: true,
    awaitSubscription: true,
  }),
  shopLanding('order', 'order', {
    roles: ['USER', 'PUBLIC'],
    onlyNotDeactivated: true,
    awaitSubscription: true,
  }),

  // Signed in, any role
  plain('email.verify', 'email/verify', {
    roles: SIGNED_IN,
    onlyAuthenticated: true,
    challenge: { required: false, checks: ['email', 'token', 'tokenValid'] },
  }),
  plain('password.set', 'password/set', {
    roles: SIGNED_IN,
    onlyAuthenticated: true,
    challenge: { required: true, checks: ['email', 'token', 'tokenValid'] },
  }),
  plain('reactivate', 'reactivate', { roles: SIGNED_IN, onlyAuthenticated: true }),
  plain('reactivate-account', 'reactivate-account', {
    roles: SIGNED_IN,
    onlyAuthenticated: true,
    accessCheck: true,
  }),

  // Customer
  account('dashboard', 'dashboard', customer),
  account('account', 'account', customer, forward('account.profile')),
  account('account.profile', 'account/profile', customer),
  account('account.security', 'account/security', customer),
  account('account.notifications', 'account/notifications', customer),
  account('account.email.change.verify', 'account/email/change/verify', {
    ...customer,
    challenge: { required: true, checks: ['email', 'token', 'tokenValid', 'tempEmail'] },
  }),
  account('features.family-sharing', 'features/family-sharing', {
    ...customer,
    feature: 'family_sharing',
  }),
  account('order-received.thanks', 'order-received/thanks', {
    roles: ['USER'],
    onlyAuthenticated: true,
    accessCheck: true,
    fallback: 'dashboard',
  }),

  // Billing (§2: the current subscription decides which of these open)
  shop('billing', 'billing', { ...billing, feature: 'billing' }, forward('billing.membership2')),
  shop('billing.membership2', 'billing/membership-v2', {
    ...billing,
    feature: 'billing',
    access: 'billing.membership',
    awaitSubscription: true,
  }),
  shop('billing.upgrade2', 'billing/upgrade-v2', {
    ...billing,
    feature: 'billing',
    access: 'billing.upgrade',
    awaitSubscription: true,
  }),
  shop('billing.reactivate2', 'billing/reactivate-v2', {
    ...billing,
    feature: 'billing',
    access: 'billing.reactivate',
    awaitSubscription: true,
  }),
  shop('billing.bonus-upgrade', 'billing/bonus-upgrade', {
    ...billing,
    feature: 'billing',
    access: 'billing.bonusUpgrade',
    awaitSubscription: true,
  }),
  shop('billing.fix-payment-method', 'billing/fix-payment-method', {
    ...billing,
    feature: 'billing',
  }),
  shop('billing.order2', 'billing/order-v2', {
    ...billing,
    feature: 'billing',
    access: 'billing.order',
    awaitSubscription: true,
  }),
  shop('billing.payment-methods', 'billing/payment-methods', { ...billing, feature: 'billing' }),
  shop('billing.invoices', 'billing/invoices', { ...billing, feature: 'billing' }),

  // Admin
  admin('admin', 'admin', staff, forward('admin.dashboard')),
  admin('admin.dashboard', 'admin/dashboard', staff),
  admin('admin.dashboard.redirect', 'admin/dashboard/redirect', staff, forward('admin.dashboard')),
  admin('admin.customers', 'admin/customers', adminOnly),
  admin('admin.customers.view', 'admin/customers/:id', adminOnly),
  admin('admin.account', 'admin/account', staff, forward('admin.account.profile')),
  admin('admin.account.profile', 'admin/account/profile', staff),
  admin('admin.account.security', 'admin/account/security', staff),
  admin('admin.account.notifications', 'admin/account/notifications', staff),
  admin('admin.account.email.change.verify', 'admin/account/email/change/verify', {
    ...staff,
    challenge: { required: true, checks: ['email', 'token', 'tokenValid', 'tempEmail'] },
  }),
  admin('admin.invoices.export-pdf', 'admin/dashboard/invoices/export-pdf', adminOnly),
  admin('admin.statistics.earnings.overview', 'admin/statistics/earnings/overview', adminOnly),
  admin(
    'admin.statistics.subscriptions.overview',
    'admin/statistics/subscriptions/overview',
    adminOnly,
  ),
  admin('admin.statistics.analytics', 'admin/statistics/analytics', adminOnly),
  admin('admin.blog.posts', 'admin/blog/posts', staff, forward('admin.blog.posts.overview')),
  admin('admin.blog.posts.overview', 'admin/blog/posts/overview', staff),
  admin('admin.blog.posts.create', 'admin/blog/posts/create', staff),
  admin('admin.blog.posts.edit', 'admin/blog/posts/edit/:id', staff),
  admin('admin.blog.categories.overview', 'admin/blog/categories/overview', staff),
  admin(
    'admin.help-center.articles',
    'admin/help-center/articles',
    staff,
    forward('admin.help-center.articles.overview'),
  ),
  admin('admin.help-center.articles.overview', 'admin/help-center/articles/published', staff),
  admin('admin.help-center.articles.create', 'admin/help-center/articles/create', staff),
  admin('admin.help-center.articles.edit', 'admin/help-center/articles/edit/:id', staff),
  admin(
    'admin.help-center.categories',
    'admin/help-center/categories',
    staff,
    forward('admin.help-center.categories.overview'),
  ),
  admin('admin.help-center.categories.overview', 'admin/help-center/categories/overview', staff),
  admin(
    'admin.help-center.categories.sub-categories',
    'admin/help-center/categories/sub-categories',
    staff,
  ),
  admin('admin.help-center.categories.sorting', 'admin/help-center/categories/sorting', staff),
  admin('admin.pages.overview', 'admin/pages/overview', staff),
  admin('admin.staticPages.overview', 'admin/static-pages/overview', staff),
  // §2: /admin/oauth/server lists the OAuth clients, /admin/oauth/client the providers.
  admin('admin.oauth.clients', 'admin/oauth/server', adminOnly),
  admin('admin.oauth.servers', 'admin/oauth/client', adminOnly),
  admin('admin.faq.pages.create', 'admin/faq/pages/create', staff),
  admin('admin.faq.list', 'admin/faq/list', staff, forward('admin.faq.list.overview')),
  admin('admin.faq.list.overview', 'admin/faq/list/overview', staff),
  admin('admin.faq.list.create', 'admin/faq/list/create', staff),
  admin('admin.faq.list.edit', 'admin/faq/list/edit/:id', staff),
  admin('admin.seo.main-pages', 'admin/seo/main-pages', staff),
  admin('admin.seo.categories', 'admin/seo/categories', staff),
  admin('admin.seo.posts', 'admin/seo/posts', staff),
  admin('admin.seo.articles', 'admin/seo/articles', staff),
  ...gateway('stripe'),
  ...gateway('paypal'),
  ...gateway('iap'),
  ...gateway('cryptomus'),
  admin(
    'admin.payment-gateways.addons',
    'admin/payment-gateways/addons',
    adminOnly,
    forward('admin.payment-gateways.addons.modules'),
  ),
  admin(
    'admin.payment-gateways.addons.modules',
    'admin/payment-gateways/addons/modules',
    adminOnly,
  ),
  admin(
    'admin.payment-gateways.addons.products',
    'admin/payment-gateways/addons/products',
    adminOnly,
  ),
  admin(
    'admin.payment-gateways.addons.product',
    'admin/payment-gateways/addons/products/:product_id',
    adminOnly,
  ),
  admin('admin.coupons', 'admin/coupons', adminOnly, forward('admin.coupons.overview')),
  admin('admin.coupons.overview', 'admin/coupons/overview', adminOnly),
  admin('admin.coupons.preapplied', 'admin/coupons/preapplied', adminOnly),
  admin('admin.coupons.view', 'admin/coupons/:coupon_id', adminOnly),
  admin('admin.notifications.email-lists', 'admin/notifications/email-lists', adminOnly),
  admin('admin.servers', 'admin/servers', adminOnly, forward('admin.servers.countries')),
  admin('admin.servers.all-servers', 'admin/servers/all-servers', adminOnly),
  admin('admin.servers.servers-list', 'admin/servers/servers-list', adminOnly),
  admin('admin.servers.countries', 'admin/servers/countries', adminOnly),
  admin('admin.servers.country', 'admin/servers/countries/:country_code', adminOnly),
  admin('admin.logs', 'admin/logs', adminOnly, forward('admin.logs.overview')),
  admin('admin.logs.overview', 'admin/logs/overview', adminOnly),
  admin('admin.logs.view', 'admin/logs/:id', adminOnly),
  admin(
    'admin.order.manage-plans',
    'admin/order/manage-plans',
    adminOnly,
    forward('admin.order.manage-plans.stripe'),
  ),
  ...['stripe', 'paypal', 'apple', 'cryptomus', 'addons', 'merged-addons'].map((plan) =>
    admin(`admin.order.manage-plans.${plan}`, `admin/order/manage-plans/${plan}`, adminOnly),
  ),
  // §2 "A redirect target named website is not among the children shown": it exists only
  // as a name, so it has the empty meta of guard priority 3.
  admin('admin.order.manage-plans.website', 'admin/order/manage-plans/website', null),
];

const byName = new Map(ROUTES.map((route) => [route.name, route]));

export function routeByName(name: string): RouteDef | undefined {
  return byName.get(name);
}
