import { fileURLToPath } from 'node:url';

/** The servers a scenario can target; each runs in its own process, started only if used. */
export const SERVERS = {
  bare: fileURLToPath(new URL('./servers/bare.ts', import.meta.url)),
  'bare-pg': fileURLToPath(new URL('./servers/bare-pg.ts', import.meta.url)),
  'bare-ws': fileURLToPath(new URL('./servers/bare-ws.ts', import.meta.url)),
  product: fileURLToPath(new URL('./servers/product.ts', import.meta.url)),
  realtime: fileURLToPath(new URL('./servers/realtime.ts', import.meta.url)),
} as const;

export type ServerName = keyof typeof SERVERS;
