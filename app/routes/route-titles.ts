/** i18n key of a route's title; route names contain dots, which i18next reads as nesting. */
export function titleKey(name: string): string {
  return `route_titles.${name.replaceAll('.', '_')}`;
}
