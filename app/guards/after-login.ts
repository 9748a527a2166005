import type { Lang } from '#shared/locales.ts';
import type { Role } from '#shared/roles.ts';
import { matchRoute, pathFor } from '../routes/match-route.ts';
import { dashboardFor } from './decide.ts';

export type AfterLogin = { kind: 'url'; href: string } | { kind: 'path'; to: string };

/**
 * §2 After login: `redirect_url` is followed as a full URL, else `continue` and `path`,
 * else the dashboard for the role. A full URL is followed only to this site's own origin,
 * and `path` only when it names one of our routes, so a crafted sign-in link cannot send
 * the user elsewhere (open redirect).
 */
export function afterLogin(
  query: URLSearchParams,
  role: Role,
  lang: Lang,
  origin: string,
): AfterLogin {
  const redirectUrl = query.get('redirect_url');
  if (redirectUrl) {
    try {
      const url = new URL(redirectUrl, origin);
      if (url.origin === origin) return { kind: 'url', href: url.href };
    } catch {
      // not a URL: fall through to the next choice
    }
  }

  const path = query.get('path');
  if (query.get('continue') && path?.startsWith('/') && !path.startsWith('//')) {
    const below = path.split('/').slice(2).join('/');
    if (matchRoute(below)) {
      const rest = new URLSearchParams(query);
      for (const key of ['continue', 'path', 'redirect_url']) rest.delete(key);
      const search = rest.toString();
      return { kind: 'path', to: search ? `${path}?${search}` : path };
    }
  }

  return { kind: 'path', to: pathFor(dashboardFor(role), lang) };
}
