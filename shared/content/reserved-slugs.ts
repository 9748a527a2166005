// Pages live at the top of the site (`/{lang}/{slug}`), beside the app's own screens and the
// public sections to come: a page may not take an address the site already answers. The
// app's route table is checked against this list by a test (app/routes), so a new screen
// cannot go missing from it.
export const RESERVED_PAGE_SLUGS: ReadonlySet<string> = new Set([
  // The app's screens (first segments of app/routes/route-table.ts).
  'account',
  'admin',
  'billing',
  'dashboard',
  'download',
  'email',
  'familysharing',
  'features',
  'notifications',
  'oauth',
  'order',
  'order-received',
  'order-v2',
  'page-not-found',
  'password',
  'r',
  'reactivate',
  'reactivate-account',
  'refer-friend',
  'signin',
  'signup',
  // The public sections and machine addresses.
  'api',
  'blog',
  'device',
  'faq',
  'help-center',
  'media',
  'pricing',
  'servers',
  'search',
  'sitemap',
  'feed',
  'rss',
  'atom',
]);

/** Static pages the site itself is built around keep their own addresses. */
export function isReservedPageSlug(slug: string, staticKey: string | null): boolean {
  return RESERVED_PAGE_SLUGS.has(slug) && slug !== staticKey;
}
