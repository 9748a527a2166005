import { createContext, useContext } from 'react';
import type { SitePage } from '#shared/contracts/site.ts';

/** The public page being shown: its language, the site's links and its body. */
export const SiteContext = createContext<SitePage | null>(null);

export function useSite(): SitePage {
  const page = useContext(SiteContext);
  if (!page) throw new Error('useSite outside a site page');
  return page;
}
