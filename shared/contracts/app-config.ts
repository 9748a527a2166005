import { z } from 'zod';
import { FEATURES } from '../features.ts';
import { LANGS } from '../locales.ts';
import { endpoint } from './endpoint.ts';
import { realtimeSettings } from './realtime.ts';

// What the server tells the browser about its configuration. It is embedded in index.html
// as a JSON data block (not a script, so the content security policy stays strict) and is
// also served by `appConfigEndpoint`.
export const appConfig = z.object({
  defaultLocale: z.enum(LANGS),
  locales: z.array(z.enum(LANGS)).min(1),
  features: z.array(z.enum(FEATURES)),
  accountBasePath: z.string(),
  /** Where live updates come from (§4): the built-in server or a Pusher-compatible cluster. */
  realtime: realtimeSettings,
});
export type AppConfig = z.infer<typeof appConfig>;

export const appConfigEndpoint = endpoint({
  method: 'GET',
  base: 'public',
  path: '/app-config',
  access: 'public',
  summary: 'Locales and feature flags',
  response: appConfig,
});
