import type { Lang } from '#shared/locales.ts';
import type { Role } from '#shared/roles.ts';
import { matchRoute, pathFor } from '../routes/match-route.ts';
import { dashboardFor } from './decide.ts';

export type AfterLogin = { kind: 'url'; href: string } | { kind: 'path'; to: string };

/**
 * A backslash (which browsers read as `/`, so `/\evil.example` is `//evil.example`) or a
 * control character (tabs and newlines are dropped from URLs) makes a value mean something
 * other than it shows; such a value is never followed.
 */
function hasUnsafeCharacter(value: string): boolean {
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (char === '\\' || code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/** `value` resolved against this site's origin, or undefined unless it stays on it. */
function onThisSite(value: string, origin: string): URL | undefined {
  if (hasUnsafeCharacter(value)) return undefined;
  try {
    const url = new URL(value, origin);
    return url.origin === new URL(origin).origin ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * §2 After login: `redirect_url` is followed as a full URL, else `continue` and `path`,
 * else the dashboard for the role. A full URL is followed only to this site's own origin,
 * and `path` only when it resolves on this origin and names one of our routes, so a crafted
 * sign-in link cannot send the user elsewhere (open redirect).
 */
export function afterLogin(
  query: URLSearchParams,
  role: Role,
  lang: Lang,
  origin: string,
): AfterLogin {
  const redirectUrl = query.get('redirect_url');
  const url = redirectUrl ? onThisSite(redirectUrl, origin) : undefined;
  if (url) return { kind: 'url', href: url.href };

  const path = query.get('path');
  const target = query.get('continue') && path?.startsWith('/') && onThisSite(path, origin);
  if (target) {
    // The path as the browser would resolve it (dot segments gone), not as it was written.
    const below = target.pathname.split('/').slice(2).join('/');
    if (matchRoute(below)) {
      const search = new URLSearchParams(target.search);
      for (const [key, value] of query) {
        if (!['continue', 'path', 'redirect_url'].includes(key)) search.append(key, value);
      }
      const rest = search.toString();
      return { kind: 'path', to: `${target.pathname}${rest ? `?${rest}` : ''}${target.hash}` };
    }
  }

  return { kind: 'path', to: pathFor(dashboardFor(role), lang) };
}
