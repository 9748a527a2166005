import type { ComponentProps } from 'react';
import { Link, useParams } from 'react-router';
import { isLang } from '#shared/locales.ts';
import { useAppConfig } from '../lib/app-config-context.ts';
import { pathFor } from '../routes/match-route.ts';
import type { RouteName } from '../routes/route-table.ts';

type Props = Omit<ComponentProps<typeof Link>, 'to'> & {
  name: RouteName;
  params?: Record<string, string>;
};

/** A link to a named route in the current language. */
export function RouteLink({ name, params, ...props }: Props) {
  return <Link to={useRoutePath(name, params)} {...props} />;
}

export function useRoutePath(name: RouteName, params?: Record<string, string>): string {
  const { lang } = useParams();
  const config = useAppConfig();
  return pathFor(name, isLang(lang) ? lang : config.defaultLocale, params);
}
