// The site's own pages the header and footer link to, by key (their addresses come from the
// content: shared/contracts/site.ts `links`). Kept free of zod: public pages' script reads it.
export const SITE_LINKS = [
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
export type SiteLink = (typeof SITE_LINKS)[number];

/** §2 "The landing nav shows at most 6 links." */
export const SITE_NAV = SITE_LINKS.slice(0, 6);
