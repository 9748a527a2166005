import { appConfigEndpoint } from '#shared/contracts/app-config.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { publicAppConfig } from './public-config.ts';

export function appConfigRoutes(app: App): Route[] {
  return [route(appConfigEndpoint, () => publicAppConfig(app))];
}
