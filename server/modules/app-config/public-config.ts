import type { AppConfig } from '#shared/contracts/app-config.ts';
import type { Config } from '../../config.ts';

/** The part of the server configuration the browser may know (shared/contracts/app-config). */
export function publicAppConfig(config: Config): AppConfig {
  return {
    defaultLocale: config.defaultLocale,
    locales: config.locales,
    features: [...config.features],
    accountBasePath: config.accountBasePath,
  };
}
