import { createPrivateKey } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';
import {
  type GatewaySettingsOf,
  gatewayEnvName,
  gatewaySettingsSchemas,
  REAL_GATEWAYS,
  type RealGatewayName,
} from '#shared/billing/gateway-settings.ts';
import { FEATURES, type Feature } from '#shared/features.ts';
import { LANGS } from '#shared/locales.ts';
import { REPORT_INTERVAL_MS } from '#shared/vpn/fleet-rules.ts';
import { type ProxyTrust, parseTrustProxy } from './http/client-address.ts';

// Every setting of the process comes from the environment, parsed here once. Unset means
// the embedded default (docs/configuration.md lists them all).
const list = <T extends z.ZodType<string, string>>(item: T) =>
  z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item));

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => ['true', '1', 'yes'].includes(value));

const url = (protocols: string[]) => z.url({ protocol: new RegExp(`^(${protocols.join('|')})$`) });

/** Apple hands out a .p8 file (PKCS#8 PEM, P-256); env files often carry it with `\n`s. */
const applePrivateKey = z
  .string()
  .transform((value) => value.replace(/\\n/g, '\n').trim())
  .refine((pem) => {
    try {
      return createPrivateKey(pem).asymmetricKeyDetails?.namedCurve === 'prime256v1';
    } catch {
      return false;
    }
  }, 'must be the PEM of a P-256 private key (Apple .p8)');

/** Which proxies in front may name the client (X-Forwarded-For): server/http/client-address.ts. */
const trustProxy = z.string().transform((value, context) => {
  try {
    return parseTrustProxy(value.trim());
  } catch {
    context.addIssue({
      code: 'custom',
      message:
        'must be false, a hop count (1: one load balancer in front), proxy addresses or ' +
        'CIDRs separated by commas (10.0.0.0/8,127.0.0.1), or true (believe every hop)',
    });
    return z.NEVER;
  }
});

/** The names given in `names` are set together or not at all: half a provider is a typo. */
const allOrNone =
  (names: readonly string[]) =>
  (env: Record<string, unknown>): boolean => {
    const set = names.filter((name) => env[name] !== undefined).length;
    return set === 0 || set === names.length;
  };

const GOOGLE_KEYS = ['OAUTH_GOOGLE_CLIENT_ID', 'OAUTH_GOOGLE_CLIENT_SECRET'] as const;
const APPLE_KEYS = [
  'OAUTH_APPLE_CLIENT_ID',
  'OAUTH_APPLE_TEAM_ID',
  'OAUTH_APPLE_KEY_ID',
  'OAUTH_APPLE_PRIVATE_KEY',
] as const;

const PUSHER_KEYS = [
  'PUSHER_APP_ID',
  'PUSHER_KEY',
  'PUSHER_SECRET',
  'PUSHER_HOST',
  'PUSHER_PORT',
  'PUSHER_SCHEME',
  'PUSHER_CLUSTER',
] as const;

/**
 * Any PUSHER_* set means an external cluster, which needs its app id, key and secret, and a
 * host or a cluster to reach; a partial set would silently fall back to the built-in server.
 */
function checkPusherKeys(env: Record<string, unknown>, context: z.RefinementCtx): void {
  if (!PUSHER_KEYS.some((name) => env[name] !== undefined)) return;
  const needed = ['PUSHER_APP_ID', 'PUSHER_KEY', 'PUSHER_SECRET'].filter(
    (name) => env[name] === undefined,
  );
  if (env.PUSHER_HOST === undefined && env.PUSHER_CLUSTER === undefined) {
    needed.push('PUSHER_HOST');
  }
  const [first] = needed;
  if (first === undefined) return;
  context.addIssue({
    code: 'custom',
    path: [first],
    message:
      'an external Pusher cluster needs PUSHER_APP_ID, PUSHER_KEY, PUSHER_SECRET and ' +
      'PUSHER_HOST or PUSHER_CLUSTER; unset every PUSHER_* for the built-in server',
  });
}

const METRICS_DEFAULT_HOST = '127.0.0.1';

/**
 * Metrics are never public (docs/configuration.md): a port of their own, on loopback unless a
 * token guards them.
 */
function checkMetricsKeys(env: Record<string, unknown>, context: z.RefinementCtx): void {
  const problem = (path: string, message: string) =>
    context.addIssue({ code: 'custom', path: [path], message });
  if (env.METRICS_PORT === undefined) {
    for (const name of ['METRICS_HOST', 'METRICS_TOKEN'])
      if (env[name] !== undefined) problem(name, 'needs METRICS_PORT, the port metrics are on');
    return;
  }
  if (env.METRICS_PORT !== 0 && env.METRICS_PORT === env.PORT) {
    problem('METRICS_PORT', 'must differ from PORT: metrics are never on the public port');
  }
  const host = typeof env.METRICS_HOST === 'string' ? env.METRICS_HOST : METRICS_DEFAULT_HOST;
  if (!isLoopback(host) && env.METRICS_TOKEN === undefined) {
    problem('METRICS_TOKEN', `is needed when METRICS_HOST (${host}) is not a loopback address`);
  }
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Passkeys (WebAuthn): the relying party is a domain, the browser's origins must lie within it,
 * and only a secure context may use WebAuthn. Browsers refuse an IP address as the relying
 * party, so an APP_URL on a loopback address (127.0.0.1, ::1) defaults to `localhost`, the
 * same machine under a name they accept.
 */
const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const LOOPBACK_IPS = new Set(['127.0.0.1', '[::1]']);
const PLAIN_HTTP_HOSTS = new Set(['localhost', '127.0.0.1']);

/** Passkeys' relying party: its id (a domain) and the origins whose ceremonies count. */
export interface WebAuthnConfig {
  rpId: string;
  origins: string[];
}

/** `host` is `domain` or a name below it. */
const within = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/**
 * The relying party from WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS, each defaulting from APP_URL;
 * each problem is pushed as `NAME: message`. Undefined (passkeys off) only when nothing is
 * set and APP_URL is plain http on a public name, or a public IP address: no browser offers
 * WebAuthn there anyway, and such a start must not fail for a feature it cannot have.
 */
function readWebAuthn(
  appUrl: string,
  rpIdSetting: string | undefined,
  originsSetting: string[] | undefined,
  problems: string[],
): WebAuthnConfig | undefined {
  const app = new URL(appUrl);
  const loopback = LOOPBACK_IPS.has(app.hostname);
  const appHost = loopback ? 'localhost' : app.hostname;
  const secure = app.protocol === 'https:' || PLAIN_HTTP_HOSTS.has(appHost);
  const named = isIP(appHost.replace(/^\[|\]$/g, '')) === 0;
  if (rpIdSetting === undefined && originsSetting === undefined && !(secure && named)) {
    return undefined;
  }
  const rpId = rpIdSetting ?? appHost;
  // A bare top-level name (`com`) would claim every site under it; browsers refuse it too.
  const registrable = rpId === appHost || (within(appHost, rpId) && rpId.includes('.'));
  if (!HOST_NAME.test(rpId) || isIP(rpId) !== 0 || !registrable) {
    problems.push(
      `WEBAUTHN_RP_ID: must be the host of APP_URL (${appHost}) or a domain it belongs to, ` +
        `not ${rpId}`,
    );
    return undefined;
  }
  const appOrigin = loopback
    ? `${app.protocol}//localhost${app.port ? `:${app.port}` : ''}`
    : app.origin;
  const origins = originsSetting ?? [appOrigin];
  for (const origin of origins) {
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    if (!url || url.origin !== origin) {
      problems.push(`WEBAUTHN_ORIGINS: ${origin} is not an origin (scheme://host[:port], no path)`);
    } else if (
      url.protocol !== 'https:' &&
      !(url.protocol === 'http:' && PLAIN_HTTP_HOSTS.has(url.hostname))
    ) {
      problems.push(
        `WEBAUTHN_ORIGINS: ${origin} must use https (plain http only for localhost and 127.0.0.1)`,
      );
    } else if (!within(url.hostname, rpId)) {
      problems.push(`WEBAUTHN_ORIGINS: ${origin} is not on WEBAUTHN_RP_ID ${rpId} or below it`);
    }
  }
  return { rpId, origins };
}

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    APP_URL: url(['http', 'https']).optional(),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    LOG_PRETTY: flag.optional(),
    TRUST_PROXY: trustProxy.default(false),
    DATABASE_URL: url(['postgres', 'postgresql']).optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    UPLOADS_DIR: z.string().min(1).optional(),
    SEED_DEMO: flag.optional(),
    FEATURES: list(z.enum(FEATURES)).default([...FEATURES]),
    DEFAULT_LOCALE: z.enum(LANGS).default('en'),
    LOCALES: list(z.enum(LANGS)).default([...LANGS]),
    ACCOUNT_BASE_PATH: z
      .string()
      .regex(/^\/[a-z0-9-]+$/, 'must look like /account')
      .default('/account'),
    WEB_DIST_DIR: z.string().min(1).default('./dist/app'),
    SITE_ENTRY: z.string().min(1).default('./dist/server/entry-server.js'),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
    SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(0),
    SMTP_URL: url(['smtp', 'smtps']).optional(),
    MAIL_FROM: z.string().min(3).default('Shieldline VPN <no-reply@localhost>'),
    REDIS_URL: url(['redis', 'rediss']).optional(),
    SESSION_IDLE_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .default(60 * 24 * 14),
    SESSION_MAX_DAYS: z.coerce.number().int().min(1).default(90),
    RATE_LIMIT_SCALE: z.coerce.number().int().min(1).max(1000).default(1),
    APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    OAUTH_GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    OAUTH_GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    OAUTH_GOOGLE_ISSUER: url(['http', 'https']).default('https://accounts.google.com'),
    OAUTH_APPLE_CLIENT_ID: z.string().min(1).optional(),
    OAUTH_APPLE_TEAM_ID: z.string().min(1).optional(),
    OAUTH_APPLE_KEY_ID: z.string().min(1).optional(),
    OAUTH_APPLE_PRIVATE_KEY: applePrivateKey.optional(),
    OAUTH_APPLE_ISSUER: url(['http', 'https']).default('https://appleid.apple.com'),
    BILLING_SANDBOX: flag.optional(),
    SANDBOX_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    BILLING_GRACE_DAYS: z.coerce.number().int().min(0).max(60).default(7),
    REFERRAL_BONUS_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    NOTIFICATION_MAILS_PER_SECOND: z.coerce.number().int().min(1).max(1000).default(10),
    VPN_REPORT_INTERVAL_MS: z.coerce
      .number()
      .int()
      .min(1_000)
      .max(30_000)
      .default(REPORT_INTERVAL_MS),
    WEBAUTHN_RP_ID: z
      .string()
      .transform((value) => value.trim().toLowerCase())
      .optional(),
    WEBAUTHN_ORIGINS: list(z.string().transform((value) => value.toLowerCase().replace(/\/$/, '')))
      .pipe(z.array(z.string()).min(1, 'name at least one origin'))
      .optional(),
    PUSHER_APP_ID: z.string().min(1).optional(),
    PUSHER_KEY: z.string().min(1).optional(),
    PUSHER_SECRET: z.string().min(1).optional(),
    PUSHER_HOST: z
      .string()
      .regex(/^([\w.-]+|\[[\da-fA-F:]+\])$/, 'must be a host name, without scheme, port or path')
      .optional(),
    PUSHER_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    PUSHER_SCHEME: z.enum(['http', 'https']).optional(),
    PUSHER_CLUSTER: z
      .string()
      .regex(/^[a-z0-9-]+$/, 'must look like eu or us2')
      .optional(),
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    METRICS_HOST: z.string().min(1).optional(),
    METRICS_TOKEN: z.string().min(24, 'must be at least 24 characters').optional(),
  })
  .refine((env) => env.LOCALES.includes(env.DEFAULT_LOCALE), {
    path: ['DEFAULT_LOCALE'],
    message: 'must be one of LOCALES',
  })
  .refine(
    (env) =>
      env.NODE_ENV !== 'production' ||
      !env.BILLING_SANDBOX ||
      (env.SANDBOX_WEBHOOK_SECRET !== undefined &&
        env.SANDBOX_WEBHOOK_SECRET !== SANDBOX_DEFAULT_WEBHOOK_SECRET),
    {
      // The default is published: anyone could sign a sandbox event granting a subscription.
      path: ['SANDBOX_WEBHOOK_SECRET'],
      message: 'the sandbox in production needs a secret of your own',
    },
  )
  .refine(allOrNone(GOOGLE_KEYS), {
    path: ['OAUTH_GOOGLE_CLIENT_ID'],
    message: `set ${GOOGLE_KEYS.join(' and ')} together`,
  })
  .refine(allOrNone(APPLE_KEYS), {
    path: ['OAUTH_APPLE_CLIENT_ID'],
    message: `set ${APPLE_KEYS.join(', ')} together`,
  })
  .superRefine(checkPusherKeys)
  .superRefine(checkMetricsKeys);

export type Env = z.input<typeof envSchema>;

/** Google sign-in (an OAuth client of the Google Cloud console). */
export interface GoogleOAuthConfig {
  clientId: string;
  clientSecret: string;
  issuer: string;
}

/** Sign in with Apple: a Services ID and the key that signs its client secrets. */
export interface AppleOAuthConfig {
  /** The Services ID. */
  clientId: string;
  teamId: string;
  keyId: string;
  /** PKCS#8 PEM of the P-256 key. */
  privateKey: string;
  issuer: string;
}

/** An external Pusher-compatible cluster (Pusher, Soketi) that carries live updates. */
export interface ExternalPusherConfig {
  appId: string;
  key: string;
  secret: string;
  /** REST and websocket host of a self-hosted cluster; unset: Pusher's own for `cluster`. */
  host: string | undefined;
  port: number | undefined;
  scheme: 'http' | 'https';
  cluster: string | undefined;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  appUrl: string;
  logLevel: string;
  logPretty: boolean;
  /**
   * Which hops may name the client (TRUST_PROXY); false: the connection's peer is the client.
   * Fastify's `trustProxy` and the websocket's per-address cap both use it.
   */
  trustProxy: ProxyTrust | false;
  databaseUrl: string | undefined;
  /** Folder of the embedded PGlite database; `memory://` keeps it in memory (tests). */
  dataDir: string;
  /** Folder of uploaded files (avatars); `memory://` keeps them in this process (tests). */
  uploadsDir: string;
  seedDemo: boolean;
  features: ReadonlySet<Feature>;
  defaultLocale: (typeof LANGS)[number];
  locales: (typeof LANGS)[number][];
  accountBasePath: string;
  webDistDir: string;
  /** The app's built server entry that renders the public pages (app/entry-server.tsx). */
  siteEntry: string;
  shutdownTimeoutMs: number;
  /**
   * After SIGTERM, how long /readyz fails while requests are still served, so the load
   * balancer's health check takes the process out before it stops listening (0: at once).
   */
  shutdownDrainMs: number;
  /** Unset: mail is only stored in the outbox table and logged. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Unset: rate-limit counters (and later realtime fan-out) stay in this process. */
  redisUrl: string | undefined;
  /** A session unused this long ends. */
  sessionIdleMs: number;
  /** A session ends this long after sign-in, however active. */
  sessionMaxMs: number;
  /**
   * Key material for secrets kept at rest (two-factor seeds). Unset: a key generated once
   * and kept in `$DATA_DIR/app-secret` (server/platform/crypto/app-key.ts).
   */
  appSecret: string | undefined;
  /** Every brute-force limit times this; 1 but for test and load runs from one address. */
  rateLimitScale: number;
  /** Social sign-in (§7 OAuth): a provider whose keys are unset is off. */
  oauth: {
    google: GoogleOAuthConfig | undefined;
    apple: AppleOAuthConfig | undefined;
  };
  /** Unset: the built-in Pusher-compatible server on this port (server/platform/realtime). */
  pusher: ExternalPusherConfig | undefined;
  /**
   * Passkeys' relying party (WEBAUTHN_RP_ID, WEBAUTHN_ORIGINS); undefined: passkeys are off,
   * APP_URL being plain http on a public name or an IP address, where browsers offer none.
   */
  webauthn: WebAuthnConfig | undefined;
  billing: BillingConfig;
  /** Bonus days each side of a referral earns when the friend first pays. */
  referralBonusDays: number;
  /** Pace of a message sent to a notification list: mails a second, one batch a second. */
  notificationMailsPerSecond: number;
  /**
   * How often VPN nodes send their usage (told at enrollment). A node silent for a minute is
   * offline whatever this is, so it stays well under that.
   */
  vpnReportIntervalMs: number;
  /** METRICS_PORT, METRICS_HOST, METRICS_TOKEN; undefined (METRICS_PORT unset): metrics off. */
  metrics: MetricsConfig | undefined;
}

/** Prometheus metrics on a listener of their own (server/platform/metrics). */
export interface MetricsConfig {
  host: string;
  /** 0: any free port (tests). */
  port: number;
  /** Unset: no token asked (loopback only). */
  token: string | undefined;
}

export interface BillingConfig {
  /**
   * The sandbox gateway (a card processor's test mode, server/platform/payments/sandbox):
   * on by default, off in production unless BILLING_SANDBOX says so.
   */
  sandbox: { webhookSecret: string } | undefined;
  /** A failed renewal keeps access this many days while payment is retried. */
  graceDays: number;
  /**
   * The real gateways whose keys the environment sets (STRIPE_*, PAYPAL_*, APPSTORE_*,
   * CRYPTOMUS_*: shared/billing/gateway-settings.ts); the admin's settings may add or
   * replace them at run time.
   */
  gateways: Partial<GatewaySettingsOf>;
}

/**
 * Each real gateway's keys from its variables (STRIPE_SECRET_KEY …): none set, it is off;
 * some set, they must make a whole, valid set.
 */
function readGatewaySettings(
  present: Record<string, string | undefined>,
  problems: string[],
): Partial<GatewaySettingsOf> {
  const gateways: Partial<Record<RealGatewayName, unknown>> = {};
  for (const gateway of REAL_GATEWAYS) {
    const schema = gatewaySettingsSchemas[gateway];
    const fields = Object.keys(schema.shape);
    const values = Object.fromEntries(
      fields.flatMap((field) => {
        const value = present[gatewayEnvName(gateway, field)];
        return value === undefined ? [] : [[field, value]];
      }),
    );
    if (Object.keys(values).length === 0) continue;
    const parsed = schema.safeParse(values);
    if (parsed.success) gateways[gateway] = parsed.data;
    else
      for (const issue of parsed.error.issues)
        problems.push(`${gatewayEnvName(gateway, String(issue.path[0]))}: ${issue.message}`);
  }
  return gateways as Partial<GatewaySettingsOf>;
}

/** The sandbox's webhook secret when none is set: it only ever signs test-mode events. */
export const SANDBOX_DEFAULT_WEBHOOK_SECRET = 'whsec_sandbox_embedded_default_0123456789';

export class ConfigError extends Error {}

/**
 * Reads an optional `.env` in the working folder into process.env (Node's own parser); a
 * variable already in the environment wins over the file, even when empty. Only the process
 * entries call it (server/main.ts, scripts/db-migrate.ts), and not for a server a test
 * runner starts with NODE_ENV=test (Vitest, Playwright): what a test checks must not
 * depend on a developer's file.
 */
export function loadEnvFile(file = '.env'): boolean {
  if (process.env.NODE_ENV === 'test') return false;
  try {
    process.loadEnvFile(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Parses the environment; throws a ConfigError whose message is one line per bad value. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  // An empty variable means unset, as in most twelve-factor tools.
  const present = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(present);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  const gateways = readGatewaySettings(present, problems);
  const appUrl = parsed.success
    ? (parsed.data.APP_URL ?? `http://localhost:${parsed.data.PORT}`).replace(/\/$/, '')
    : undefined;
  const webauthn =
    parsed.success && appUrl
      ? readWebAuthn(appUrl, parsed.data.WEBAUTHN_RP_ID, parsed.data.WEBAUTHN_ORIGINS, problems)
      : undefined;
  if (!parsed.success || !appUrl || problems.length > 0) {
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const env = parsed.data;
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    appUrl,
    logLevel: env.LOG_LEVEL,
    logPretty: env.LOG_PRETTY ?? (env.NODE_ENV === 'development' && process.stdout.isTTY === true),
    trustProxy: env.TRUST_PROXY,
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    // An in-memory database goes with in-memory uploads: nothing of a test run (or an e2e
    // server) lands on disk unless a folder is named on purpose.
    uploadsDir:
      env.UPLOADS_DIR ??
      (env.DATA_DIR.startsWith('memory://') ? 'memory://' : `${env.DATA_DIR}/uploads`),
    // The demo passwords are published (README): a production start on an empty database
    // must not create an admin with one unless asked to.
    seedDemo: env.SEED_DEMO ?? env.NODE_ENV !== 'production',
    features: new Set(env.FEATURES),
    defaultLocale: env.DEFAULT_LOCALE,
    locales: env.LOCALES,
    accountBasePath: env.ACCOUNT_BASE_PATH,
    webDistDir: env.WEB_DIST_DIR,
    siteEntry: env.SITE_ENTRY,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    shutdownDrainMs: env.SHUTDOWN_DRAIN_MS,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    redisUrl: env.REDIS_URL,
    sessionIdleMs: env.SESSION_IDLE_MINUTES * 60_000,
    sessionMaxMs: env.SESSION_MAX_DAYS * 86_400_000,
    appSecret: env.APP_SECRET,
    rateLimitScale: env.RATE_LIMIT_SCALE,
    oauth: {
      google:
        env.OAUTH_GOOGLE_CLIENT_ID && env.OAUTH_GOOGLE_CLIENT_SECRET
          ? {
              clientId: env.OAUTH_GOOGLE_CLIENT_ID,
              clientSecret: env.OAUTH_GOOGLE_CLIENT_SECRET,
              issuer: env.OAUTH_GOOGLE_ISSUER,
            }
          : undefined,
      apple:
        env.OAUTH_APPLE_CLIENT_ID &&
        env.OAUTH_APPLE_TEAM_ID &&
        env.OAUTH_APPLE_KEY_ID &&
        env.OAUTH_APPLE_PRIVATE_KEY
          ? {
              clientId: env.OAUTH_APPLE_CLIENT_ID,
              teamId: env.OAUTH_APPLE_TEAM_ID,
              keyId: env.OAUTH_APPLE_KEY_ID,
              privateKey: env.OAUTH_APPLE_PRIVATE_KEY,
              issuer: env.OAUTH_APPLE_ISSUER,
            }
          : undefined,
    },
    billing: {
      sandbox:
        (env.BILLING_SANDBOX ?? env.NODE_ENV !== 'production')
          ? { webhookSecret: env.SANDBOX_WEBHOOK_SECRET ?? SANDBOX_DEFAULT_WEBHOOK_SECRET }
          : undefined,
      graceDays: env.BILLING_GRACE_DAYS,
      gateways,
    },
    referralBonusDays: env.REFERRAL_BONUS_DAYS,
    notificationMailsPerSecond: env.NOTIFICATION_MAILS_PER_SECOND,
    vpnReportIntervalMs: env.VPN_REPORT_INTERVAL_MS,
    metrics:
      env.METRICS_PORT === undefined
        ? undefined
        : {
            host: env.METRICS_HOST ?? METRICS_DEFAULT_HOST,
            port: env.METRICS_PORT,
            token: env.METRICS_TOKEN,
          },
    pusher:
      env.PUSHER_APP_ID && env.PUSHER_KEY && env.PUSHER_SECRET
        ? {
            appId: env.PUSHER_APP_ID,
            key: env.PUSHER_KEY,
            secret: env.PUSHER_SECRET,
            host: env.PUSHER_HOST,
            port: env.PUSHER_PORT,
            scheme: env.PUSHER_SCHEME ?? 'https',
            cluster: env.PUSHER_CLUSTER,
          }
        : undefined,
    webauthn,
  };
}

/** APP_SECRET of every test app: a fixed key, so nothing is generated into a data folder. */
export const TEST_APP_SECRET = 'test-app-secret-not-for-production-0123456789';

/** A configuration for tests: the defaults with the overrides given. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  // Nothing of a test run lands in ./data, where `npm start` keeps its database, uploads
  // and generated key: the data folder (and with it the uploads) is in memory, and the key
  // is fixed rather than written to $DATA_DIR/app-secret.
  return loadConfig({
    NODE_ENV: 'test',
    // TEST_LOG_LEVEL=error lets a run print our 500s' causes (scripts/test.sh sets it).
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SEED_DEMO: 'false',
    DATA_DIR: 'memory://',
    APP_SECRET: TEST_APP_SECRET,
    // The public pages render from the app's source, so no build is needed to test them.
    SITE_ENTRY: 'app/entry-server.tsx',
    ...overrides,
  });
}
