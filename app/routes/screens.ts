import type { ComponentType } from 'react';
import type { MessagePart } from '../i18n/i18n.ts';
import type { Area } from './route-meta.ts';
import type { AppRoute, RouteName } from './route-table.ts';

/** Loads one screen's code: each `import()` below is a chunk of its own. */
export type ScreenLoader = () => Promise<ComponentType>;

// The screens built so far, by route name; a route without one shows "not available yet".
// The 404 is in the first bundle (app/router.tsx), everything else loads when its route is
// first opened. Here are the screens a visitor may open next (the public pages, sign-in,
// sign-up, ordering); those behind a sign-in come through one import of
// signed-in-screens.ts and the staff's of app/features/admin/admin-screens.ts, so the first
// bundle carries one preload list for each instead of one per screen. Admin code is named `admin-*` by the build (vite.config.ts) so a test
// can tell that a customer loads none.
const siteScreen: ScreenLoader = () =>
  import('../features/site/site-screen.tsx').then((m) => m.SiteScreen);

export const SCREENS: Partial<Record<RouteName, ScreenLoader>> = {
  // The public site (issue 23), when the app moves to one of its pages.
  home: siteScreen,
  page: siteScreen,
  blog: siteScreen,
  'blog.more': siteScreen,
  'help-center': siteScreen,
  'help-center.more': siteScreen,
  faq: siteScreen,
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
  // Public: the invitee may not be signed in yet (its texts load with public screens).
  'familysharing.invite.verify': () =>
    import('../features/family-sharing/invite-verify-page.tsx').then((m) => m.InviteVerifyPage),
  // An app of ours or a partner's signing in through us (app/features/oauth/): plain pages
  // behind a sign-in, whose texts are a part no other screen needs.
  device: () =>
    Promise.all([
      import('../features/oauth/device-sign-in-page.tsx'),
      import('../i18n/i18n.ts').then((m) => m.loadMessageParts(['apps'])),
    ]).then(([m]) => m.DeviceSignInPage),
  'oauth.consent': () =>
    Promise.all([
      import('../features/oauth/consent-page.tsx'),
      import('../i18n/i18n.ts').then((m) => m.loadMessageParts(['apps'])),
    ]).then(([m]) => m.ConsentPage),
  // The download of a data export: a plain page whose texts are a part of their own.
  'data-export': () =>
    Promise.all([
      import('../features/account/data-export-page.tsx'),
      import('../i18n/i18n.ts').then((m) => m.loadMessageParts(['data-export'])),
    ]).then(([m]) => m.DataExportPage),
  // Public: its texts are the notifications part, which public screens do not load.
  unsubscribe: () =>
    Promise.all([
      import('../features/notifications/unsubscribe-page.tsx'),
      import('../i18n/i18n.ts').then((m) => m.loadMessageParts(['notifications'])),
    ]).then(([m]) => m.UnsubscribePage),
};

/** The code of a route's screen; undefined where none is built yet. */
export async function loadScreenCode(route: AppRoute): Promise<ComponentType | undefined> {
  const own = SCREENS[route.name];
  if (own) return own();
  if (route.area === 'public') return undefined;
  const [{ SIGNED_IN_SCREENS }, admin] = await Promise.all([
    import('./signed-in-screens.ts'),
    route.area === 'admin' ? import('../features/admin/admin-screens.ts') : undefined,
  ]);
  return (SIGNED_IN_SCREENS[route.name] ?? admin?.ADMIN_SCREENS[route.name])?.();
}

/** The message files a screen of each area needs beyond the first bundle's. */
export const AREA_MESSAGES: Record<Area, readonly MessagePart[]> = {
  // The family invite's page is public: the invitee may not be signed in yet. Sign-in offers
  // passkeys.
  public: ['auth', 'settings', 'family', 'public-site', 'order', 'passkeys'],
  // The thanks page after an order is an account screen; the security page has passkeys.
  account: [
    'auth',
    'settings',
    'order',
    'dashboard',
    'referral',
    'family',
    'notifications',
    'vpn',
    'passkeys',
    'apps',
    'data-export',
  ],
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
    'admin-servers',
    'admin-content',
    'admin-content-categories',
    'admin-content-seo',
    'admin-content-media',
    'admin-help-insights',
    'admin-oauth',
    // Staff's own notification and security settings are the customer's screens.
    'notifications',
    'passkeys',
  ],
};
