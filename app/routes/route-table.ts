import type { Feature } from '#shared/features.ts';
import { PERMISSIONS, type Permission } from '#shared/permissions.ts';
import type { Role } from '#shared/roles.ts';
import type { Area, HeaderType, RouteDef, RouteMeta } from './route-meta.ts';

// §2 The whole route table: every screen, its name and its guard meta. Paths are below
// `/{lang}/`. The router, the guards, the menus and the sign-in `continue` parameter all
// read this one list, and `RouteName` (the names in it) types every link, menu entry and
// redirect, so a misspelt name fails the type check.

const EVERYONE: readonly Role[] = ['USER', 'ADMIN', 'AUTHOR', 'PUBLIC'];
const SIGNED_IN: readonly Role[] = ['USER', 'ADMIN', 'AUTHOR'];

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

/**
 * A staff screen that needs `permission` (shared/permissions.ts, read by the server's
 * endpoints too). §6 "Some admin routes are admin-only with an empty author list".
 */
function can(permission: Permission, feature?: Feature): RouteMeta {
  return { ...customer, roles: PERMISSIONS[permission], permission, feature };
}

function define<A extends Area, H extends HeaderType>(area: A, header: H) {
  return <const N extends string, const M extends RouteMeta | null, const R extends string = never>(
    name: N,
    path: string,
    meta: M,
    extra?: { redirect: R },
  ) =>
    ({ name, path, meta, area, header, ...extra }) as RouteDef<N> & {
      meta: M;
      area: A;
      header: H;
      redirect?: R;
    };
}

const landing = define('public', 'landing');
const plain = define('public', 'plain');
const account = define('account', 'app');
const shop = define('billing', 'app');
const shopLanding = define('billing', 'landing');
const admin = define('admin', 'app');

const forward = <const R extends string>(target: R) => ({ redirect: target });

/**
 * `admin.payment-gateways.{gateway}` with its products list, product detail and settings (its
 * keys; `iap` is the App Store, `appstore` on the server).
 */
function gateway<const K extends string>(key: K) {
  const base = `admin.payment-gateways.${key}` as const;
  const path = `admin/payment-gateways/${key}`;
  const commerce = can('commerce');
  return [
    admin(base, path, commerce, forward(`${base}.products`)),
    admin(`${base}.products`, `${path}/products`, commerce),
    admin(`${base}.product`, `${path}/products/:product_id`, commerce),
    admin(`${base}.settings`, `${path}/settings`, commerce),
  ] as const;
}

const MANAGED_PLANS = [
  'stripe',
  'paypal',
  'apple',
  'cryptomus',
  'addons',
  'merged-addons',
] as const;

export const ROUTES = [
  // Public
  landing('home', '', { ...open, awaitSubscription: true }),
  plain('signin', 'signin', visitorOnly),
  plain('signup', 'signup', { ...visitorOnly, feature: 'auth' }),
  plain('password.forgot', 'password/forgot', visitorOnly),
  plain('password.forgot.verify', 'password/forgot/verify', {
    ...visitorOnly,
    challenge: { required: true, checks: ['email', 'token'], missingFallback: 'password.forgot' },
    access: 'password.forgotVerify',
  }),
  plain('password.reset', 'password/reset', { ...visitorOnly, access: 'password.reset' }),
  plain('familysharing.invite.verify', 'familysharing/invite/verify', {
    ...open,
    feature: 'family_sharing',
    challenge: { required: true, checks: ['email', 'token', 'tokenValid'] },
  }),
  landing('page-not-found', 'page-not-found', open),
  // The public site (issue 23): served as HTML by the server; the app shows the same pages
  // from their data when it moves to one (app/features/site/site-screen.tsx).
  landing('blog', 'blog', open),
  landing('blog.more', 'blog/*', open),
  landing('help-center', 'help-center', open),
  landing('help-center.more', 'help-center/*', open),
  landing('faq', 'faq/*', open),
  // A page at `/{lang}/{slug}`: the screens' own first segments rank above it.
  landing('page', ':slug', open),
  // Where Google and Apple send the sign-in popup back (shared/contracts/oauth.ts).
  plain('oauth.callback', 'oauth/callback', open),
  // Issue 24: a TV or router's code confirmed (RFC 8628), and a third-party app's consent.
  plain('device', 'device', customer),
  plain('oauth.consent', 'oauth/consent/:uid', {
    roles: SIGNED_IN,
    onlyAuthenticated: true,
    onlyNotDeactivated: true,
  }),
  // A list mail's visible unsubscribe link (shared/contracts/notifications.ts): no sign-in.
  plain('unsubscribe', 'notifications/unsubscribe/:subscriberUuid', open),
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
  account('refer-friend', 'refer-friend', { ...customer, feature: 'referral' }),
  // §2 user menu "download": the apps and the customer's WireGuard devices.
  account('download', 'download', customer),
  // Issue 25: where a data export's mailed link leads (shared/contracts/data-export.ts). Open
  // to a deactivated account too: what it asked for before is still its own to download.
  plain('data-export', 'account/data-export', {
    roles: ['USER'],
    onlyAuthenticated: true,
    challenge: { required: true, checks: ['token', 'tokenValid'] },
  }),
  // Where an order ends, also after a provider's page (3-D Secure, PayPal approval) sent the
  // customer back with a fresh page load: the page itself waits for the subscription and
  // says so when the payment was not confirmed, so it needs no access check.
  account('order-received.thanks', 'order-received/thanks', {
    roles: ['USER'],
    onlyAuthenticated: true,
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
  admin('admin', 'admin', can('dashboard'), forward('admin.dashboard')),
  admin('admin.dashboard', 'admin/dashboard', can('dashboard')),
  admin(
    'admin.dashboard.redirect',
    'admin/dashboard/redirect',
    can('dashboard'),
    forward('admin.dashboard'),
  ),
  admin('admin.customers', 'admin/customers', can('customers', 'users')),
  admin('admin.customers.view', 'admin/customers/:id', can('customers', 'users')),
  admin('admin.account', 'admin/account', can('ownAccount'), forward('admin.account.profile')),
  admin('admin.account.profile', 'admin/account/profile', can('ownAccount')),
  admin('admin.account.security', 'admin/account/security', can('ownAccount')),
  admin('admin.account.notifications', 'admin/account/notifications', can('ownAccount')),
  admin('admin.account.email.change.verify', 'admin/account/email/change/verify', {
    ...can('ownAccount'),
    challenge: { required: true, checks: ['email', 'token', 'tokenValid', 'tempEmail'] },
  }),
  admin('admin.invoices.export-pdf', 'admin/dashboard/invoices/export-pdf', can('commerce')),
  admin(
    'admin.statistics.earnings.overview',
    'admin/statistics/earnings/overview',
    can('statistics'),
  ),
  admin(
    'admin.statistics.subscriptions.overview',
    'admin/statistics/subscriptions/overview',
    can('statistics'),
  ),
  admin('admin.statistics.analytics', 'admin/statistics/analytics', can('statistics')),
  admin(
    'admin.blog.posts',
    'admin/blog/posts',
    can('content'),
    forward('admin.blog.posts.overview'),
  ),
  admin('admin.blog.posts.overview', 'admin/blog/posts/overview', can('content')),
  admin('admin.blog.posts.create', 'admin/blog/posts/create', can('content')),
  admin('admin.blog.posts.edit', 'admin/blog/posts/edit/:id', can('content')),
  admin('admin.blog.categories.overview', 'admin/blog/categories/overview', can('content')),
  admin(
    'admin.help-center.articles',
    'admin/help-center/articles',
    can('content'),
    forward('admin.help-center.articles.overview'),
  ),
  admin(
    'admin.help-center.articles.overview',
    'admin/help-center/articles/published',
    can('content'),
  ),
  admin('admin.help-center.articles.create', 'admin/help-center/articles/create', can('content')),
  admin('admin.help-center.articles.edit', 'admin/help-center/articles/edit/:id', can('content')),
  admin(
    'admin.help-center.categories',
    'admin/help-center/categories',
    can('content'),
    forward('admin.help-center.categories.overview'),
  ),
  admin(
    'admin.help-center.categories.overview',
    'admin/help-center/categories/overview',
    can('content'),
  ),
  admin(
    'admin.help-center.categories.sub-categories',
    'admin/help-center/categories/sub-categories',
    can('content'),
  ),
  admin(
    'admin.help-center.categories.sorting',
    'admin/help-center/categories/sorting',
    can('content'),
  ),
  admin('admin.pages.overview', 'admin/pages/overview', can('content')),
  // Not in §2's list, which names the overviews only: where a page is written.
  admin('admin.pages.create', 'admin/pages/create', can('content')),
  admin('admin.pages.edit', 'admin/pages/edit/:id', can('content')),
  admin('admin.staticPages.overview', 'admin/static-pages/overview', can('content')),
  admin('admin.staticPages.edit', 'admin/static-pages/edit/:id', can('content')),
  // §2: /admin/oauth/server lists the OAuth clients, /admin/oauth/client the providers.
  admin('admin.oauth.clients', 'admin/oauth/server', can('oauth')),
  admin('admin.oauth.servers', 'admin/oauth/client', can('oauth')),
  admin('admin.faq.pages.create', 'admin/faq/pages/create', can('content')),
  admin('admin.faq.list', 'admin/faq/list', can('content'), forward('admin.faq.list.overview')),
  admin('admin.faq.list.overview', 'admin/faq/list/overview', can('content')),
  admin('admin.faq.list.create', 'admin/faq/list/create', can('content')),
  admin('admin.faq.list.edit', 'admin/faq/list/edit/:id', can('content')),
  admin('admin.seo.main-pages', 'admin/seo/main-pages', can('content')),
  admin('admin.seo.categories', 'admin/seo/categories', can('content')),
  admin('admin.seo.posts', 'admin/seo/posts', can('content')),
  admin('admin.seo.articles', 'admin/seo/articles', can('content')),
  ...gateway('stripe'),
  ...gateway('paypal'),
  ...gateway('iap'),
  ...gateway('cryptomus'),
  admin(
    'admin.payment-gateways.addons',
    'admin/payment-gateways/addons',
    can('commerce'),
    forward('admin.payment-gateways.addons.modules'),
  ),
  admin(
    'admin.payment-gateways.addons.modules',
    'admin/payment-gateways/addons/modules',
    can('commerce'),
  ),
  admin(
    'admin.payment-gateways.addons.products',
    'admin/payment-gateways/addons/products',
    can('commerce'),
  ),
  admin(
    'admin.payment-gateways.addons.product',
    'admin/payment-gateways/addons/products/:product_id',
    can('commerce'),
  ),
  admin('admin.coupons', 'admin/coupons', can('commerce'), forward('admin.coupons.overview')),
  admin('admin.coupons.overview', 'admin/coupons/overview', can('commerce')),
  admin('admin.coupons.preapplied', 'admin/coupons/preapplied', can('commerce')),
  admin('admin.coupons.view', 'admin/coupons/:coupon_id', can('commerce')),
  admin(
    'admin.notifications.email-lists',
    'admin/notifications/email-lists',
    can('notificationLists'),
  ),
  admin('admin.servers', 'admin/servers', can('servers'), forward('admin.servers.countries')),
  admin('admin.servers.all-servers', 'admin/servers/all-servers', can('servers')),
  admin('admin.servers.servers-list', 'admin/servers/servers-list', can('servers')),
  admin('admin.servers.countries', 'admin/servers/countries', can('servers')),
  admin('admin.servers.country', 'admin/servers/countries/:country_code', can('servers')),
  admin('admin.logs', 'admin/logs', can('logs', 'logging'), forward('admin.logs.overview')),
  admin('admin.logs.overview', 'admin/logs/overview', can('logs', 'logging')),
  admin('admin.logs.view', 'admin/logs/:id', can('logs', 'logging')),
  admin(
    'admin.order.manage-plans',
    'admin/order/manage-plans',
    can('commerce'),
    forward('admin.order.manage-plans.stripe'),
  ),
  ...MANAGED_PLANS.map((plan) =>
    admin(`admin.order.manage-plans.${plan}`, `admin/order/manage-plans/${plan}`, can('commerce')),
  ),
  // §2 "A redirect target named website is not among the children shown": it exists only
  // as a name, so it has the empty meta of guard priority 3.
  admin('admin.order.manage-plans.website', 'admin/order/manage-plans/website', null),
] as const;

/** Every route's name: what links, menus and redirects name. */
export type RouteName = (typeof ROUTES)[number]['name'];
export type AppRoute = (typeof ROUTES)[number];

// Names the table itself uses (forwarding routes, fallbacks) must exist too: a misspelt one
// fails here at compile time.
type MetaOf = Exclude<AppRoute['meta'], null>;
type NamedInTable =
  | NonNullable<AppRoute['redirect']>
  | NonNullable<Extract<MetaOf, { fallback: string }>['fallback']>
  | NonNullable<
      Extract<MetaOf, { challenge: { missingFallback: string } }>['challenge']['missingFallback']
    >;
const tableNamesExist: [NamedInTable] extends [RouteName] ? true : never = true;
void tableNamesExist;

const byName = new Map<string, AppRoute>(ROUTES.map((route) => [route.name, route]));

export function routeByName(name: RouteName): AppRoute;
export function routeByName(name: string): AppRoute | undefined;
export function routeByName(name: string): AppRoute | undefined {
  return byName.get(name);
}

export function isRouteName(name: string): name is RouteName {
  return byName.has(name);
}
