// What the cluster is made of, in one place: `npm run cluster` and the fault suite start it
// from here, and a test (topology.test.ts) checks that compose.yaml says the same (ports,
// environment, health checks), so the rehearsal on this machine is the deployment.

/** The app process's command, as the container runs it. */
export const APP_COMMAND = ['node', '--import', 'tsx', 'server/main.ts'] as const;

export const HAPROXY_CONFIG = 'deploy/haproxy.cfg';

/** HAProxy's arguments: in the foreground (-db), so the process started is the one signalled. */
export const BALANCER_ARGS = ['-db', '-f', HAPROXY_CONFIG] as const;

/** The load balancer's check: the path and what it expects (deploy/haproxy.cfg). */
export const READINESS_PATH = '/readyz';

/** Where the balancer and the two app processes listen by default. */
export const CLUSTER_PORTS = { balancer: 3000, apps: [3001, 3002] } as const;

/** SIGTERM → /readyz fails for this long (≥ 2 checks of 1 s) → the process stops listening. */
export const DRAIN_MS = 3_000;

export interface Placement {
  /** Where this process listens: 127.0.0.1 here, 0.0.0.0 in a container. */
  host: string;
  port: number;
  /** The public address: the balancer's. */
  appUrl: string;
  databaseUrl: string;
  redisUrl: string;
  dataDir: string;
}

/**
 * Every app process's environment. The values that say where things are (placement) differ
 * between this machine and compose; the rest must be equal in both.
 */
export function appEnvironment(placement: Placement): Record<string, string> {
  return {
    NODE_ENV: 'production',
    HOST: placement.host,
    PORT: String(placement.port),
    APP_URL: placement.appUrl,
    DATABASE_URL: placement.databaseUrl,
    REDIS_URL: placement.redisUrl,
    DATA_DIR: placement.dataDir,
    // The balancer reaches the processes from loopback here, from a private network in
    // compose; it appends the client's address, which is then believed.
    TRUST_PROXY: 'loopback,uniquelocal',
    SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    SHUTDOWN_TIMEOUT_MS: '15000',
    LOG_LEVEL: 'info',
  };
}

/** Placement and secrets: set per deployment, so only their presence is compared. */
export const PLACEMENT_KEYS = ['HOST', 'APP_URL', 'DATABASE_URL', 'REDIS_URL', 'DATA_DIR'];
export const SECRET_KEYS = ['APP_SECRET'];

/**
 * What the local rehearsal adds on top (never in compose): the demo accounts, and the
 * sandbox gateway that the fault suite's checkouts and webhooks use.
 */
export function rehearsalEnvironment(sandboxWebhookSecret: string): Record<string, string> {
  return {
    SEED_DEMO: 'true',
    BILLING_SANDBOX: 'true',
    SANDBOX_WEBHOOK_SECRET: sandboxWebhookSecret,
  };
}

/** The balancer's environment (deploy/haproxy.cfg reads these). */
export function balancerEnvironment(
  bind: string,
  apps: readonly [string, string],
): Record<string, string> {
  return { LB_BIND: bind, APP1_ADDR: apps[0], APP2_ADDR: apps[1] };
}
