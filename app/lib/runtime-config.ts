import type { AppConfig } from '#shared/contracts/app-config.ts';
import { appConfigCall } from '../session/session-calls.ts';

// The server embeds its public configuration in index.html (server/http/web.ts); the Vite
// dev server does not, so there the app asks the API once. The server validated these
// values at start-up, so the browser only checks their shape, without pulling zod into
// the first bundle.
function isAppConfig(value: unknown): value is AppConfig {
  const config = value as Partial<AppConfig> | null;
  return (
    typeof config?.defaultLocale === 'string' &&
    Array.isArray(config.locales) &&
    Array.isArray(config.features) &&
    typeof config.accountBasePath === 'string'
  );
}

export async function loadRuntimeConfig(): Promise<AppConfig> {
  const block = document.getElementById('app-config');
  const value = block?.textContent
    ? JSON.parse(block.textContent)
    : await (await fetch(appConfigCall.url)).json();
  if (!isAppConfig(value)) throw new Error('invalid app configuration');
  return value;
}
