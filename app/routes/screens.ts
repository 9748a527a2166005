import type { ComponentType } from 'react';
import type { MessagePart } from '../i18n/i18n.ts';
import type { Area } from './route-meta.ts';
import type { AppRoute, RouteName } from './route-table.ts';

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

  // Where every customer lands (app/features/dashboard/).
  dashboard: () => import('../features/dashboard/dashboard-page.tsx').then((m) => m.DashboardPage),
  'features.family-sharing': () =>
    import('../features/family-sharing/family-sharing-page.tsx').then((m) => m.FamilySharingPage),
  // Public: the invitee may not be signed in yet (its texts load with public screens).
  'familysharing.invite.verify': () =>
    import('../features/family-sharing/invite-verify-page.tsx').then((m) => m.InviteVerifyPage),
  'refer-friend': () =>
    import('../features/referral/refer-friend-page.tsx').then((m) => m.ReferFriendPage),

  'account.profile': () =>
    import('../features/account/profile-page.tsx').then((m) => m.ProfilePage),
  'account.security': () =>
    import('../features/account/security-page.tsx').then((m) => m.SecurityPage),
  'account.notifications': () =>
    import('../features/notifications/notifications-page.tsx').then((m) => m.NotificationsPage),
  'admin.account.notifications': () =>
    import('../features/notifications/notifications-page.tsx').then((m) => m.NotificationsPage),
  // Public: its texts are the notifications part, which public screens do not load.
  unsubscribe: () =>
    Promise.all([
      import('../features/notifications/unsubscribe-page.tsx'),
      import('../i18n/i18n.ts').then((m) => m.loadMessageParts(['notifications'])),
    ]).then(([m]) => m.UnsubscribePage),
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
};

/**
 * The code of a route's screen; undefined where none is built yet. Staff screens come through
 * one import of app/features/admin/admin-screens.ts (one preload list in the first bundle).
 */
export async function loadScreenCode(route: AppRoute): Promise<ComponentType | undefined> {
  const own = SCREENS[route.name];
  if (own) return own();
  if (route.area !== 'admin') return undefined;
  const { ADMIN_SCREENS } = await import('../features/admin/admin-screens.ts');
  return ADMIN_SCREENS[route.name]?.();
}

/** The message files a screen of each area needs beyond the first bundle's. */
export const AREA_MESSAGES: Record<Area, readonly MessagePart[]> = {
  // The family invite's page is public: the invitee may not be signed in yet.
  public: ['auth', 'settings', 'family'],
  // The thanks page after an order is an account screen.
  account: ['auth', 'settings', 'order', 'dashboard', 'referral', 'family', 'notifications'],
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
    'admin-notifications',
    // Staff's own notification settings are the customer's screen.
    'notifications',
  ],
};
