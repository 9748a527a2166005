// §2 "Public and footer links (pricing, features, servers, download, blog, what is a VPN,
// help center, terms, privacy) all currently go to signin." Labels are i18n keys.
export const FOOTER_LINKS = [
  'pricing',
  'features',
  'servers',
  'download',
  'blog',
  'what_is_vpn',
  'help_center',
  'terms',
  'privacy',
] as const;

/** §2 "The landing nav shows at most 6 links." */
export const LANDING_NAV_LIMIT = 6;
export const LANDING_NAV = FOOTER_LINKS.slice(0, LANDING_NAV_LIMIT);

/** Where every public link points for now (§2). */
export const PUBLIC_LINK_TARGET = 'signin';
