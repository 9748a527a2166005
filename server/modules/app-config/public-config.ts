import type { AppConfig } from '#shared/contracts/app-config.ts';
import type { App } from '../../http/types.ts';

/** The part of the server configuration the browser may know (shared/contracts/app-config). */
export function publicAppConfig(app: Pick<App, 'config' | 'realtime'>): AppConfig {
  const { config } = app;
  return {
    defaultLocale: config.defaultLocale,
    locales: config.locales,
    features: [...config.features],
    accountBasePath: config.accountBasePath,
    realtime: app.realtime.settings,
  };
}

/** The configuration as a JSON data block for a page's `<head>`; `<` is escaped so that no
 * value can close the script element early. */
export function appConfigBlock(appConfig: AppConfig): string {
  const json = JSON.stringify(appConfig).replaceAll('<', '\\u003c');
  return `<script type="application/json" id="app-config">${json}</script>`;
}
