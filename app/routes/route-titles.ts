import type { RouteName } from './route-table.ts';

/**
 * i18n key of a route's title; route names contain dots, which i18next reads as nesting.
 * Admin titles are admin texts, loaded with the admin screens.
 */
export function titleKey(name: RouteName): string {
  const key = name.replaceAll('.', '_');
  return name.startsWith('admin') ? `staff.route_titles.${key}` : `route_titles.${key}`;
}
