import { generatePath, matchRoutes } from 'react-router';
import type { Lang } from '#shared/locales.ts';
import { type AppRoute, ROUTES, type RouteName, routeByName } from './route-table.ts';

export interface RouteMatch {
  route: AppRoute;
  params: Record<string, string>;
}

// React Router ranks the candidates, so `admin/coupons/overview` wins over
// `admin/coupons/:coupon_id` whatever the order of the table.
const matchable = ROUTES.map((route) => ({ path: route.path, id: route.name }));

/** The route a path below `/{lang}` names, or undefined for an unknown path. */
export function matchRoute(pathBelowLang: string): RouteMatch | undefined {
  const [match] =
    matchRoutes(matchable, pathBelowLang.startsWith('/') ? pathBelowLang : `/${pathBelowLang}`) ??
    [];
  const route = match && routeByName(match.route.id);
  if (!match || !route) return undefined;
  return { route, params: match.params as Record<string, string> };
}

/** `/{lang}/…` of a named route. */
export function pathFor(name: RouteName, lang: Lang, params: Record<string, string> = {}): string {
  const route = routeByName(name);
  const below = generatePath(route.path, params);
  return below ? `/${lang}/${below}` : `/${lang}`;
}
