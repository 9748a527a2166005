import type { ComponentType } from 'react';
import type { MessagePart } from '../i18n/i18n.ts';
import type { Area } from './route-meta.ts';
import type { RouteName } from './route-table.ts';

/** Loads one screen's code: each `import()` below is a chunk of its own. */
export type ScreenLoader = () => Promise<ComponentType>;

// The screens built so far, by route name; a route without one shows "not available yet".
// The home page and the 404 are in the first bundle (app/router.tsx), everything else loads
// when its route is first opened. Admin screens live under app/features/admin/, whose code
// the build names `admin-*` (vite.config.ts) so a test can tell that a customer loads none.
export const SCREENS: Partial<Record<RouteName, ScreenLoader>> = {
  signin: () => import('../features/auth/sign-in-page.tsx').then((m) => m.SignInPage),
  signup: () => import('../features/auth/sign-up-page.tsx').then((m) => m.SignUpPage),
  'password.forgot': () =>
    import('../features/auth/forgot-password-page.tsx').then((m) => m.ForgotPasswordPage),
  'password.reset': () =>
    import('../features/auth/reset-password-page.tsx').then((m) => m.ResetPasswordPage),
  'email.verify': () =>
    import('../features/auth/verify-email-page.tsx').then((m) => m.VerifyEmailPage),
  'password.set': () =>
    import('../features/auth/set-password-page.tsx').then((m) => m.SetPasswordPage),
  'oauth.callback': () =>
    import('../features/auth/oauth-callback-page.tsx').then((m) => m.OAuthCallbackPage),
  reactivate: () => import('../features/account/reactivate-page.tsx').then((m) => m.ReactivatePage),
  'reactivate-account': () =>
    import('../features/account/reactivate-page.tsx').then((m) => m.ReactivatePage),

  // Ordering a plan (app/features/billing/order/): one page for visitors and customers.
  order2: () => import('../features/billing/order/order-pages.tsx').then((m) => m.OrderPage),
  order: () => import('../features/billing/order/order-pages.tsx').then((m) => m.OrderPage),
  'billing.order2': () =>
    import('../features/billing/order/order-pages.tsx').then((m) => m.OrderPage),
  'billing.reactivate2': () =>
    import('../features/billing/order/order-pages.tsx').then((m) => m.ReactivatePlanPage),
  'billing.bonus-upgrade': () =>
    import('../features/billing/order/order-pages.tsx').then((m) => m.BonusUpgradePage),
  'order-received.thanks': () =>
    import('../features/billing/order/thanks-page.tsx').then((m) => m.ThanksPage),

  'account.profile': () =>
    import('../features/account/profile-page.tsx').then((m) => m.ProfilePage),
  'account.security': () =>
    import('../features/account/security-page.tsx').then((m) => m.SecurityPage),
  'account.email.change.verify': () =>
    import('../features/account/email-change-verify-page.tsx').then((m) => m.EmailChangeVerifyPage),

  // Staff manage their own account with the customer's screens, which talk to the
  // dashboard base for them (§2 /admin/account).
  'admin.account.profile': () =>
    import('../features/account/profile-page.tsx').then((m) => m.ProfilePage),
  'admin.account.security': () =>
    import('../features/account/security-page.tsx').then((m) => m.SecurityPage),
  'admin.account.email.change.verify': () =>
    import('../features/account/email-change-verify-page.tsx').then((m) => m.EmailChangeVerifyPage),

  // The signed-in customer's billing (app/features/billing/account/).
  'billing.membership2': () =>
    import('../features/billing/account/membership-page.tsx').then((m) => m.MembershipPage),
  'billing.upgrade2': () =>
    import('../features/billing/account/upgrade-page.tsx').then((m) => m.UpgradePage),
  'billing.fix-payment-method': () =>
    import('../features/billing/account/fix-payment-page.tsx').then((m) => m.FixPaymentPage),
  'billing.payment-methods': () =>
    import('../features/billing/account/payment-methods-page.tsx').then(
      (m) => m.PaymentMethodsPage,
    ),
  'billing.invoices': () =>
    import('../features/billing/account/invoices-page.tsx').then((m) => m.InvoicesPage),

  // The dashboard and statistics (app/features/admin/statistics/): one chunk, recharts in it.
  'admin.dashboard': () =>
    import('../features/admin/statistics/statistics-screens.ts').then((m) => m.DashboardPage),
  'admin.statistics.earnings.overview': () =>
    import('../features/admin/statistics/statistics-screens.ts').then((m) => m.EarningsPage),
  'admin.statistics.subscriptions.overview': () =>
    import('../features/admin/statistics/statistics-screens.ts').then(
      (m) => m.SubscriptionsStatsPage,
    ),
  'admin.statistics.analytics': () =>
    import('../features/admin/statistics/statistics-screens.ts').then((m) => m.AnalyticsPage),
  'admin.customers': () =>
    import('../features/admin/customers/customers-page.tsx').then((m) => m.CustomersPage),
  'admin.customers.view': () =>
    import('../features/admin/customers/customer-page.tsx').then((m) => m.CustomerPage),
  'admin.logs.overview': () =>
    import('../features/admin/logs/logs-page.tsx').then((m) => m.LogsPage),
  'admin.logs.view': () => import('../features/admin/logs/log-page.tsx').then((m) => m.LogPage),
  'admin.invoices.export-pdf': () =>
    import('../features/admin/sales/invoices-export-page.tsx').then((m) => m.InvoicesExportPage),
  'admin.coupons.overview': () =>
    import('../features/admin/coupons/coupons-page.tsx').then((m) => m.CouponsPage),
  'admin.coupons.preapplied': () =>
    import('../features/admin/coupons/preapplied-coupons-page.tsx').then(
      (m) => m.PreappliedCouponsPage,
    ),
  'admin.coupons.view': () =>
    import('../features/admin/coupons/coupon-page.tsx').then((m) => m.CouponPage),
  // Each gateway's products and the addons (app/features/admin/products/).
  'admin.payment-gateways.stripe.products': () =>
    import('../features/admin/products/products-page.tsx').then((m) => m.ProductsPages.stripe),
  'admin.payment-gateways.stripe.product': () =>
    import('../features/admin/products/product-page.tsx').then((m) => m.ProductPages.stripe),
  'admin.payment-gateways.paypal.products': () =>
    import('../features/admin/products/products-page.tsx').then((m) => m.ProductsPages.paypal),
  'admin.payment-gateways.paypal.product': () =>
    import('../features/admin/products/product-page.tsx').then((m) => m.ProductPages.paypal),
  'admin.payment-gateways.iap.products': () =>
    import('../features/admin/products/products-page.tsx').then((m) => m.ProductsPages.iap),
  'admin.payment-gateways.iap.product': () =>
    import('../features/admin/products/product-page.tsx').then((m) => m.ProductPages.iap),
  'admin.payment-gateways.cryptomus.products': () =>
    import('../features/admin/products/products-page.tsx').then((m) => m.ProductsPages.cryptomus),
  'admin.payment-gateways.cryptomus.product': () =>
    import('../features/admin/products/product-page.tsx').then((m) => m.ProductPages.cryptomus),
  'admin.payment-gateways.addons.modules': () =>
    import('../features/admin/products/products-page.tsx').then(
      (m) => m.ProductsPages['addons-modules'],
    ),
  'admin.payment-gateways.addons.products': () =>
    import('../features/admin/products/products-page.tsx').then(
      (m) => m.ProductsPages['addons-products'],
    ),
  'admin.payment-gateways.addons.product': () =>
    import('../features/admin/products/product-page.tsx').then((m) => m.ProductPages.addons),
  // One screen for each gateway's keys (app/features/admin/payment-gateways/).
  'admin.payment-gateways.stripe.settings': () =>
    import('../features/admin/payment-gateways/gateway-settings-page.tsx').then(
      (m) => m.GatewaySettingsPages.stripe,
    ),
  'admin.payment-gateways.paypal.settings': () =>
    import('../features/admin/payment-gateways/gateway-settings-page.tsx').then(
      (m) => m.GatewaySettingsPages.paypal,
    ),
  'admin.payment-gateways.iap.settings': () =>
    import('../features/admin/payment-gateways/gateway-settings-page.tsx').then(
      (m) => m.GatewaySettingsPages.iap,
    ),
  'admin.payment-gateways.cryptomus.settings': () =>
    import('../features/admin/payment-gateways/gateway-settings-page.tsx').then(
      (m) => m.GatewaySettingsPages.cryptomus,
    ),
  // §2 manage plans: one screen per list (app/features/admin/manage-plans/).
  'admin.order.manage-plans.stripe': () =>
    import('../features/admin/manage-plans/manage-plans-page.tsx').then(
      (m) => m.ManagePlansPages.stripe,
    ),
  'admin.order.manage-plans.paypal': () =>
    import('../features/admin/manage-plans/manage-plans-page.tsx').then(
      (m) => m.ManagePlansPages.paypal,
    ),
  'admin.order.manage-plans.apple': () =>
    import('../features/admin/manage-plans/manage-plans-page.tsx').then(
      (m) => m.ManagePlansPages.apple,
    ),
  'admin.order.manage-plans.cryptomus': () =>
    import('../features/admin/manage-plans/manage-plans-page.tsx').then(
      (m) => m.ManagePlansPages.cryptomus,
    ),
  'admin.order.manage-plans.addons': () =>
    import('../features/admin/manage-plans/manage-plans-page.tsx').then(
      (m) => m.ManagePlansPages.addons,
    ),
  'admin.order.manage-plans.merged-addons': () =>
    import('../features/admin/manage-plans/manage-plans-page.tsx').then(
      (m) => m.ManagePlansPages['merged-addons'],
    ),
};

/** The message files a screen of each area needs beyond the first bundle's. */
export const AREA_MESSAGES: Record<Area, readonly MessagePart[]> = {
  public: ['auth', 'settings'],
  // The thanks page after an order is an account screen.
  account: ['auth', 'settings', 'order'],
  billing: ['auth', 'settings', 'billing', 'order'],
  // Staff texts come in parts (admin-*.json) so each area's file stays one team's to edit.
  admin: [
    'auth',
    'settings',
    'admin',
    'admin-catalog',
    'admin-plans',
    'admin-coupons',
    'admin-sales',
    'admin-stats',
  ],
};
