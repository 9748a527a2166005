import { resolve } from 'node:path';
import { z } from 'zod';
import { LOG_LEVELS, type LogLevel } from './log.ts';

// The agent's whole configuration comes from the environment (a systemd unit's
// `Environment=` lines), checked once at start: a typo stops it with one line instead of a
// node that half works.

export class ConfigError extends Error {}

/** The issue's message: "is required" when unset, `message` when set but wrong. */
const expect = (message: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : message),
});

const envSchema = z.object({
  VPN_NODE_API_URL: z
    .url({
      protocol: /^https?$/,
      ...expect('must be the http(s) URL of the API, e.g. https://vpn.example.com'),
    })
    // The node API's paths are appended to it.
    .transform((url) => url.replace(/\/+$/, '')),
  // The shape the API's bearer check accepts: any other token could never authenticate.
  VPN_NODE_TOKEN: z
    .string(expect('must be text'))
    .regex(
      /^[A-Za-z0-9_-]{16,128}$/,
      'must be the server token shown in the admin (16 to 128 of A-Z a-z 0-9 _ -)',
    ),
  // Linux interface names: at most 15 bytes, no slash or whitespace (what wg-quick accepts).
  VPN_NODE_INTERFACE: z
    .string(expect('must be text'))
    .regex(/^[A-Za-z0-9_=+.-]{1,15}$/, 'must be the WireGuard interface name, e.g. wg0'),
  VPN_NODE_STATE_DIR: z.string(expect('must be a folder path')).transform((path) => resolve(path)),
  VPN_NODE_WG: z.string().default('wg'),
  VPN_NODE_LOG_LEVEL: z
    .enum(LOG_LEVELS, expect(`must be one of ${LOG_LEVELS.join(', ')}`))
    .default('info'),
});

export interface AgentConfig {
  apiUrl: string;
  token: string;
  interfaceName: string;
  stateDir: string;
  wgPath: string;
  logLevel: LogLevel;
}

/** The configuration from `env`; a missing or bad value throws one line naming each. */
export function loadConfig(env: NodeJS.ProcessEnv): AgentConfig {
  // An empty variable means unset, as systemd's `Environment=NAME=` writes it.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const values = parsed.data;
  return {
    apiUrl: values.VPN_NODE_API_URL,
    token: values.VPN_NODE_TOKEN,
    interfaceName: values.VPN_NODE_INTERFACE,
    stateDir: values.VPN_NODE_STATE_DIR,
    wgPath: values.VPN_NODE_WG,
    logLevel: values.VPN_NODE_LOG_LEVEL,
  };
}
