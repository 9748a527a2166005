import { sitemapPath } from '#shared/content/public-paths.ts';

/**
 * The app's screens below `/{lang}/` that are no one's to index: signing in and up, the
 * password and e-mail token pages, everything behind a sign-in (account, billing,
 * dashboard, the customer's download page, order-received, admin …) and referral links.
 */
export const PRIVATE_SCREENS = [
  'signin',
  'signup',
  'password',
  'email',
  'account',
  'billing',
  'dashboard',
  'download',
  'order-received',
  'admin',
  'reactivate',
  'reactivate-account',
  'refer-friend',
  'features/family-sharing',
  'familysharing',
  'notifications',
  'oauth',
  'r',
] as const;

/**
 * robots.txt: everything public may be crawled but the API and the private screens of each
 * language. A rule matches a path's start, so each screen gets its exact address, what is
 * below it and its query (`$` ends a rule; Google and Bing read it): `/en/download` alone
 * would also hide the public `/en/download-vpn`. Written out per language rather than as
 * `/*\/download`, whose `*` would also hide a blog tag or help article named `download`.
 */
export function robotsTxt(origin: string, langs: readonly string[]): string {
  const rules = langs.flatMap((lang) =>
    PRIVATE_SCREENS.flatMap((screen) => {
      const path = `/${lang}/${screen}`;
      return [`Disallow: ${path}$`, `Disallow: ${path}/`, `Disallow: ${path}?`];
    }),
  );
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    ...rules,
    '',
    `Sitemap: ${origin}${sitemapPath()}`,
    '',
  ].join('\n');
}
