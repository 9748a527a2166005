import { useEffect, useState } from 'react';
import type { siteEndpoints } from '#shared/contracts/site.ts';
import type { Lang } from '#shared/locales.ts';
import { SITE_LINKS, SITE_NAV, type SiteLink } from '#shared/site/site-links.ts';
import { call, endpointRef } from '../api/client.ts';

// §2 the public and footer links (pricing, features, servers, download, blog, what is a VPN,
// help center, terms, privacy): the site's own pages, whose addresses in each language come
// from the content (issue 23). Labels are i18n keys `site.{link}`.

export { SITE_LINKS as FOOTER_LINKS, SITE_NAV as LANDING_NAV, type SiteLink };

const linksCall = endpointRef<typeof siteEndpoints.links>({
  method: 'GET',
  url: '/api/public/v1/site/links',
});

/** Until the addresses arrive: the site's fixed names, which the server moves on (301). */
function fixedLinks(lang: Lang): Record<SiteLink, string> {
  const at = (path: string) => `/${lang}/${path}`;
  return {
    pricing: at('pricing'),
    features: at('features'),
    servers: at('servers'),
    download: at('download'),
    blog: at('blog'),
    what_is_vpn: `/${lang}`,
    help_center: at('help-center'),
    terms: `/${lang}`,
    privacy: `/${lang}`,
  };
}

const known = new Map<Lang, Promise<Record<SiteLink, string>>>();

function linksIn(lang: Lang): Promise<Record<SiteLink, string>> {
  let links = known.get(lang);
  if (!links) {
    links = call(linksCall, { query: { lang } }).then((answer) => answer.links);
    links.catch(() => known.delete(lang));
    known.set(lang, links);
  }
  return links;
}

/** The site's links in `lang`, read once per language. */
export function useSiteLinks(lang: Lang): Record<SiteLink, string> {
  const [links, setLinks] = useState<{ lang: Lang; links: Record<SiteLink, string> } | null>(null);
  useEffect(() => {
    let current = true;
    linksIn(lang)
      .then((found) => current && setLinks({ lang, links: found }))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [lang]);
  return links?.lang === lang ? links.links : fixedLinks(lang);
}
