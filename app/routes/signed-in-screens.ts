import type { RouteName } from './route-table.ts';
import type { ScreenLoader } from './screens.ts';

// The screens behind a sign-in, customer's and staff's own account, by route name: reached
// through one import from screens.ts, so the first bundle does not grow with each of them.
export const SIGNED_IN_SCREENS: Partial<Record<RouteName, ScreenLoader>> = {
  'billing.order2': () =>
    import('../features/billing/order/order-pages.tsx').then((m) => m.OrderPage),
  'billing.reactivate2': () =>
    import('../features/billing/order/order-pages.tsx').then((m) => m.ReactivatePlanPage),
  'billing.bonus-upgrade': () =>
    import('../features/billing/order/order-pages.tsx').then((m) => m.BonusUpgradePage),
  'order-received.thanks': () =>
    import('../features/billing/order/thanks-page.tsx').then((m) => m.ThanksPage),

  // Where every customer lands (app/features/dashboard/).
  dashboard: () => import('../features/dashboard/dashboard-page.tsx').then((m) => m.DashboardPage),
  'features.family-sharing': () =>
    import('../features/family-sharing/family-sharing-page.tsx').then((m) => m.FamilySharingPage),
  'refer-friend': () =>
    import('../features/referral/refer-friend-page.tsx').then((m) => m.ReferFriendPage),
  // The apps and the customer's WireGuard devices (app/features/vpn/).
  download: () => import('../features/vpn/download-page.tsx').then((m) => m.DownloadPage),

  'account.profile': () =>
    import('../features/account/profile-page.tsx').then((m) => m.ProfilePage),
  'account.security': () =>
    import('../features/account/security-page.tsx').then((m) => m.SecurityPage),
  'account.notifications': () =>
    import('../features/notifications/notifications-page.tsx').then((m) => m.NotificationsPage),
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
  'admin.account.notifications': () =>
    import('../features/notifications/notifications-page.tsx').then((m) => m.NotificationsPage),

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
};
