import type { RouteName } from '../../routes/route-table.ts';
import type { ScreenLoader } from '../../routes/screens.ts';

// The staff screens, by route name. The first bundle reaches them through one import of this
// file (app/routes/screens.ts), so it carries one preload list for the whole admin instead
// of one per screen: the public home's JavaScript budget does not grow with every admin
// screen. Each import() below is still a chunk of its own, named admin-* by the build.
export const ADMIN_SCREENS: Partial<Record<RouteName, ScreenLoader>> = {
  // Where staff land: no charts, so not with the statistics' chunk and recharts.
  'admin.dashboard': () => import('./dashboard/dashboard-page.tsx').then((m) => m.DashboardPage),
  // The statistics screens (app/features/admin/statistics/): one chunk, recharts in it.
  'admin.statistics.earnings.overview': () =>
    import('./statistics/statistics-screens.ts').then((m) => m.EarningsPage),
  'admin.statistics.subscriptions.overview': () =>
    import('./statistics/statistics-screens.ts').then((m) => m.SubscriptionsStatsPage),
  'admin.statistics.analytics': () =>
    import('./statistics/statistics-screens.ts').then((m) => m.AnalyticsPage),
  'admin.customers': () => import('./customers/customers-page.tsx').then((m) => m.CustomersPage),
  'admin.customers.view': () => import('./customers/customer-page.tsx').then((m) => m.CustomerPage),
  'admin.logs.overview': () => import('./logs/logs-page.tsx').then((m) => m.LogsPage),
  'admin.logs.view': () => import('./logs/log-page.tsx').then((m) => m.LogPage),
  'admin.invoices.export-pdf': () =>
    import('./sales/invoices-export-page.tsx').then((m) => m.InvoicesExportPage),
  'admin.notifications.email-lists': () =>
    import('./notifications/email-lists-page.tsx').then((m) => m.EmailListsPage),
  'admin.coupons.overview': () => import('./coupons/coupons-page.tsx').then((m) => m.CouponsPage),
  'admin.coupons.preapplied': () =>
    import('./coupons/preapplied-coupons-page.tsx').then((m) => m.PreappliedCouponsPage),
  'admin.coupons.view': () => import('./coupons/coupon-page.tsx').then((m) => m.CouponPage),
  // Each gateway's products and the addons (app/features/admin/products/).
  'admin.payment-gateways.stripe.products': () =>
    import('./products/products-page.tsx').then((m) => m.ProductsPages.stripe),
  'admin.payment-gateways.stripe.product': () =>
    import('./products/product-page.tsx').then((m) => m.ProductPages.stripe),
  'admin.payment-gateways.paypal.products': () =>
    import('./products/products-page.tsx').then((m) => m.ProductsPages.paypal),
  'admin.payment-gateways.paypal.product': () =>
    import('./products/product-page.tsx').then((m) => m.ProductPages.paypal),
  'admin.payment-gateways.iap.products': () =>
    import('./products/products-page.tsx').then((m) => m.ProductsPages.iap),
  'admin.payment-gateways.iap.product': () =>
    import('./products/product-page.tsx').then((m) => m.ProductPages.iap),
  'admin.payment-gateways.cryptomus.products': () =>
    import('./products/products-page.tsx').then((m) => m.ProductsPages.cryptomus),
  'admin.payment-gateways.cryptomus.product': () =>
    import('./products/product-page.tsx').then((m) => m.ProductPages.cryptomus),
  'admin.payment-gateways.addons.modules': () =>
    import('./products/products-page.tsx').then((m) => m.ProductsPages['addons-modules']),
  'admin.payment-gateways.addons.products': () =>
    import('./products/products-page.tsx').then((m) => m.ProductsPages['addons-products']),
  'admin.payment-gateways.addons.product': () =>
    import('./products/product-page.tsx').then((m) => m.ProductPages.addons),
  // One screen for each gateway's keys (app/features/admin/payment-gateways/).
  'admin.payment-gateways.stripe.settings': () =>
    import('./payment-gateways/gateway-settings-page.tsx').then(
      (m) => m.GatewaySettingsPages.stripe,
    ),
  'admin.payment-gateways.paypal.settings': () =>
    import('./payment-gateways/gateway-settings-page.tsx').then(
      (m) => m.GatewaySettingsPages.paypal,
    ),
  'admin.payment-gateways.iap.settings': () =>
    import('./payment-gateways/gateway-settings-page.tsx').then((m) => m.GatewaySettingsPages.iap),
  'admin.payment-gateways.cryptomus.settings': () =>
    import('./payment-gateways/gateway-settings-page.tsx').then(
      (m) => m.GatewaySettingsPages.cryptomus,
    ),
  // §2 content (app/features/admin/content/): the lists and one editor behind create and edit.
  'admin.blog.posts.overview': () =>
    import('./content/content-screens.ts').then((m) => m.ContentListPages.posts),
  'admin.blog.posts.create': () =>
    import('./content/content-screens.ts').then((m) => m.ContentCreatePages.posts),
  'admin.blog.posts.edit': () =>
    import('./content/content-screens.ts').then((m) => m.ContentEditPages.posts),
  'admin.help-center.articles.overview': () =>
    import('./content/content-screens.ts').then((m) => m.ContentListPages.articles),
  'admin.help-center.articles.create': () =>
    import('./content/content-screens.ts').then((m) => m.ContentCreatePages.articles),
  'admin.help-center.articles.edit': () =>
    import('./content/content-screens.ts').then((m) => m.ContentEditPages.articles),
  'admin.pages.overview': () =>
    import('./content/content-screens.ts').then((m) => m.ContentListPages.pages),
  'admin.pages.create': () =>
    import('./content/content-screens.ts').then((m) => m.ContentCreatePages.pages),
  'admin.pages.edit': () =>
    import('./content/content-screens.ts').then((m) => m.ContentEditPages.pages),
  'admin.staticPages.overview': () =>
    import('./content/content-screens.ts').then((m) => m.ContentListPages.static_pages),
  'admin.staticPages.edit': () =>
    import('./content/content-screens.ts').then((m) => m.ContentEditPages.static_pages),
  'admin.faq.list.overview': () =>
    import('./content/content-screens.ts').then((m) => m.ContentListPages.faq),
  'admin.faq.list.create': () =>
    import('./content/content-screens.ts').then((m) => m.ContentCreatePages.faq),
  'admin.faq.list.edit': () =>
    import('./content/content-screens.ts').then((m) => m.ContentEditPages.faq),
  // §2 SEO and where FAQs show (app/features/admin/content-seo/).
  'admin.seo.main-pages': () =>
    import('./content-seo/content-seo-screens.ts').then((m) => m.MainPagesPage),
  'admin.seo.categories': () =>
    import('./content-seo/content-seo-screens.ts').then((m) => m.SeoListPages.categories),
  'admin.seo.posts': () =>
    import('./content-seo/content-seo-screens.ts').then((m) => m.SeoListPages.posts),
  'admin.seo.articles': () =>
    import('./content-seo/content-seo-screens.ts').then((m) => m.SeoListPages.articles),
  'admin.faq.pages.create': () =>
    import('./content-seo/content-seo-screens.ts').then((m) => m.FaqPlacementPage),
  // §2 content categories (app/features/admin/content-categories/): lists, parents, order.
  'admin.blog.categories.overview': () =>
    import('./content-categories/content-categories-screens.ts').then(
      (m) => m.CategoryListPages.blog,
    ),
  'admin.help-center.categories.overview': () =>
    import('./content-categories/content-categories-screens.ts').then(
      (m) => m.CategoryListPages.help,
    ),
  'admin.help-center.categories.sub-categories': () =>
    import('./content-categories/content-categories-screens.ts').then(
      (m) => m.CategoryListPages.sub,
    ),
  'admin.help-center.categories.sorting': () =>
    import('./content-categories/content-categories-screens.ts').then((m) => m.CategorySortingPage),
  // §2 the VPN fleet (app/features/admin/servers/): live while open.
  'admin.servers.countries': () =>
    import('./servers/countries-page.tsx').then((m) => m.CountriesPage),
  'admin.servers.country': () => import('./servers/country-page.tsx').then((m) => m.CountryPage),
  'admin.servers.all-servers': () =>
    import('./servers/all-servers-page.tsx').then((m) => m.AllServersPage),
  'admin.servers.servers-list': () =>
    import('./servers/servers-list-page.tsx').then((m) => m.ServersListPage),
  // §2 OAuth: our clients and the providers people sign in with (app/features/admin/oauth/).
  'admin.oauth.clients': () =>
    import('./oauth/oauth-clients-page.tsx').then((m) => m.OAuthClientsPage),
  'admin.oauth.servers': () =>
    import('./oauth/oauth-providers-page.tsx').then((m) => m.OAuthProvidersPage),
  // §2 manage plans: one screen per list (app/features/admin/manage-plans/).
  'admin.order.manage-plans.stripe': () =>
    import('./manage-plans/manage-plans-page.tsx').then((m) => m.ManagePlansPages.stripe),
  'admin.order.manage-plans.paypal': () =>
    import('./manage-plans/manage-plans-page.tsx').then((m) => m.ManagePlansPages.paypal),
  'admin.order.manage-plans.apple': () =>
    import('./manage-plans/manage-plans-page.tsx').then((m) => m.ManagePlansPages.apple),
  'admin.order.manage-plans.cryptomus': () =>
    import('./manage-plans/manage-plans-page.tsx').then((m) => m.ManagePlansPages.cryptomus),
  'admin.order.manage-plans.addons': () =>
    import('./manage-plans/manage-plans-page.tsx').then((m) => m.ManagePlansPages.addons),
  'admin.order.manage-plans.merged-addons': () =>
    import('./manage-plans/manage-plans-page.tsx').then((m) => m.ManagePlansPages['merged-addons']),
};
