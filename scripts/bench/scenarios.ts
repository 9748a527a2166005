import { builtInApp } from '#server/platform/realtime/pusher-app.ts';
import { measureCheckout } from './checkout.ts';
import type { Measurement } from './measure.ts';
import type { BenchOptions } from './options.ts';
import { measureFanout } from './realtime-fanout.ts';
import { BENCH_APP_SECRET } from './servers/bench-secret.ts';
import type { ServerName } from './servers.ts';
import { measureFleet } from './vpn-fleet.ts';

export interface SetupContext {
  /** `http://127.0.0.1:<port>` of the scenario's server. */
  baseUrl: string;
  /** The same for another server of the run (one a scenario of this group also uses). */
  on(server: ServerName): SetupContext;
  /** A bounded request to the scenario's server; throws unless the status is 2xx. */
  request(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Response>;
}

/** What a scenario with its own runner gets instead of autocannon. */
export interface CustomMeasureContext {
  scenario: Scenario;
  baseUrl: string;
  /** The server's process, e.g. to read its memory. */
  pid: number;
  options: BenchOptions;
  signal: AbortSignal;
}

export interface Scenario {
  name: string;
  server: ServerName;
  /** Defaults to GET. */
  method?: string;
  /** A path on the scenario's server: the harness only ever talks to loopback. */
  path: string;
  /** Sent as JSON with a matching content-type. */
  body?: unknown;
  /**
   * Requests take these bodies in turn instead of `body`: e.g. one account each, so that
   * per-account limits meet the load as they meet many users, not one user 50 times at once.
   */
  bodies?: unknown[];
  headers?: Record<string, string>;
  /** Every measured response must have this status, else the run fails. Defaults to 200. */
  expectStatus?: number;
  /**
   * Each request comes from a different client address, so per-IP brute-force limits
   * (which a real attacker meets, and which would turn the run into a 429 benchmark) do not
   * apply; the product's bench server trusts X-Forwarded-For for this.
   */
  varyClientAddress?: boolean;
  /** Runs once before the warm-up, e.g. to create a user; the headers it returns are sent. */
  setup?: (context: SetupContext) => Promise<Record<string, string> | undefined>;
  /** Measures in its own way instead of with autocannon (websockets); `path` then names it. */
  measure?: (context: CustomMeasureContext) => Promise<Measurement>;
  /** The scenario this one is reported as a ratio to; BASELINE unless named. */
  baseline?: Scenario;
}

/** Every HTTP scenario is reported as a ratio to this one. */
export const BASELINE: Scenario = { name: 'bare-hello', server: 'bare', path: '/' };

/**
 * Realtime scenarios are reported as a ratio to the same fan-out on a bare `ws` server that
 * checks nothing, so the figures say what our protocol handling costs over ws itself.
 */
export const REALTIME_BASELINE: Scenario = {
  name: 'bare-ws-fanout',
  server: 'bare-ws',
  path: '/app/{key}',
  measure: (context) => measureFanout(context, { appId: 'bench', key: 'bench', secret: 'bench' }),
};

const BENCH_PASSWORD = 'Bench#2024password';
const benchAccount = (index: number) => ({
  email: `bench-${index}@example.com`,
  password: BENCH_PASSWORD,
});
/** More accounts than autocannon's connections, so no account has two sign-ins in flight. */
const SIGN_IN_ACCOUNTS = Array.from({ length: 64 }, (_, index) => benchAccount(index + 1));
const stateChanging = { 'x-requested-with': 'fetch' };

/**
 * Makes sure the account exists on this server (a second scenario on the same server finds
 * it there already) and signs it in; returns the session cookie. Each account signs up from
 * an address of its own, as real sign-ups do, so the per-address limit is not what is met.
 */
async function benchSession(
  context: SetupContext,
  account = benchAccount(0),
  index = 0,
): Promise<Record<string, string>> {
  const existing = await fetch(new URL('/api/public/v1/auth/sign-in', context.baseUrl), {
    method: 'POST',
    headers: { ...stateChanging, 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  const response = existing.ok
    ? existing
    : await context.request(
        'POST',
        '/api/public/v1/auth/sign-up',
        { ...account, password_confirmation: account.password },
        { 'x-forwarded-for': `10.250.${index >> 8}.${index & 255}` },
      );
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error(`no session cookie for ${account.email}`);
  return { cookie };
}

const productSessions = new Map<string, Promise<Record<string, string>>>();
/**
 * One session on the product for the whole run, so get-auth-user and its PostgreSQL
 * baseline look up the very same session and user rows.
 */
function sharedBenchSession(product: SetupContext): Promise<Record<string, string>> {
  let session = productSessions.get(product.baseUrl);
  if (!session) {
    session = benchSession(product);
    productSessions.set(product.baseUrl, session);
  }
  return session;
}

/** The product runs on PostgreSQL (servers/product.ts) rather than in-memory PGlite. */
const ON_POSTGRES = Boolean(process.env.BENCH_DATABASE_URL);

/**
 * get-auth-user's baseline on PostgreSQL: bare Fastify and a `pg` pool running the same
 * session-and-user join on the same rows (the session the product's sign-in made), so the
 * ratio is what the product costs around the query, not the query itself.
 */
export const PG_SESSION_BASELINE: Scenario = {
  name: 'bare-pg-session',
  server: 'bare-pg',
  method: 'POST',
  path: '/users/get-auth-user',
  headers: stateChanging,
  setup: (context) => sharedBenchSession(context.on('product')),
};

/** The product's cheapest answer: what a public page served from the cache is held to. */
const HEALTHZ: Scenario = { name: 'healthz', server: 'product', path: '/healthz' };

/** A demo post (server/modules/content/demo/en/blog/wireguard-explained.md). */
const DEMO_POST = '/en/blog/wireguard-protocol-explained';

// One entry per endpoint worth watching.
export const SCENARIOS: Scenario[] = [
  HEALTHZ,
  {
    // Issue 23: a public page once rendered is served from the page cache, compressed once,
    // at no less than 0.8 of healthz's requests per second in the same run.
    name: 'blog-post-cached',
    server: 'product',
    path: DEMO_POST,
    headers: { 'accept-encoding': 'br, gzip' },
    baseline: HEALTHZ,
    setup: async (context) => {
      const response = await context.request('GET', DEMO_POST);
      const html = await response.text();
      if (!html.includes('content-prose')) throw new Error(`${DEMO_POST} is not the rendered post`);
      return undefined;
    },
  },
  {
    // Dominated by argon2id (m = 19 MiB, t = 2): its cost is the point of the figure.
    name: 'sign-in',
    server: 'product',
    method: 'POST',
    path: '/api/public/v1/auth/sign-in',
    bodies: SIGN_IN_ACCOUNTS,
    headers: stateChanging,
    varyClientAddress: true,
    setup: async (context) => {
      for (const [index, account] of SIGN_IN_ACCOUNTS.entries()) {
        await benchSession(context, account, index + 1);
      }
      return undefined;
    },
  },
  {
    // A session lookup (one indexed join) and the user presenter. On PostgreSQL it is
    // compared with the same join on bare Fastify and `pg`, not with a hello-world.
    name: 'get-auth-user',
    server: 'product',
    method: 'POST',
    path: '/api/account/v1/users/get-auth-user',
    headers: stateChanging,
    setup: (context) => sharedBenchSession(context),
    ...(ON_POSTGRES ? { baseline: PG_SESSION_BASELINE } : {}),
  },
  {
    // §2 the current subscription, as guards and menus read it: a session lookup, the
    // latest paid subscription and the finalizing flag, for a customer who has bought.
    name: 'current-subscription',
    server: 'product',
    path: '/api/account/v1/subscriptions/current',
    setup: async (context) => {
      const session = await benchSession(context, benchAccount(900), 900);
      const catalog = (await (
        await context.request('GET', '/api/public/v1/billing/products?currency=USD&service_id=1')
      ).json()) as { items: { product_id: number; additional: boolean }[] };
      const plan = catalog.items.find((item) => !item.additional);
      const token = (await (
        await context.request('POST', '/sandbox/v1/tokens', {
          number: '4242424242424242',
          exp_month: 12,
          exp_year: 2034,
          cvc: '123',
          name: 'Bench',
        })
      ).json()) as { id: string };
      const order = await fetch(
        new URL('/api/account/v1/billing/subscriptions/create', context.baseUrl),
        {
          method: 'POST',
          headers: { ...stateChanging, ...session, 'content-type': 'application/json' },
          body: JSON.stringify({
            product_id: plan?.product_id,
            payment: { service_id: 1, token: token.id },
            idempotency_key: crypto.randomUUID(),
          }),
        },
      );
      // A second run on the same PostgreSQL finds the plan bought already (409).
      if (!order.ok && order.status !== 409)
        throw new Error(`bench order answered ${order.status}`);
      return session;
    },
  },
  {
    // Buying: order checks, the sandbox's customer, price, card and charge, the answer
    // applied to our books (subscription, invoice, ledger) and its mail: a fixed number of
    // orders by new customers (checkout.ts).
    name: 'checkout',
    server: 'product',
    method: 'POST',
    path: '/api/account/v1/billing/subscriptions/create',
    measure: measureCheckout,
  },
  {
    // Publish through the `pusher` library (signed HTTP events API) to receipt on each of
    // BENCH_REALTIME_CLIENTS idle sockets, and the server's memory per 1,000 of them.
    name: 'realtime-fanout',
    server: 'realtime',
    path: '/app/{key}',
    baseline: REALTIME_BASELINE,
    measure: (context) => measureFanout(context, builtInApp(BENCH_APP_SECRET)),
  },
  // 1,000 VPN nodes (long polls, a report each every 10 s) and customers' key changes on the
  // product with a seeded fleet (vpn-fleet.ts). PostgreSQL only, so it is left out of a run
  // on PGlite. Against get-auth-user, the entry above (a getter: the array is made by then).
  ...(ON_POSTGRES
    ? [
        {
          name: 'vpn-fleet',
          server: 'product',
          method: 'POST',
          path: '/api/node/v1/report',
          measure: measureFleet,
          get baseline() {
            return SCENARIOS.find((s) => s.name === 'get-auth-user');
          },
        } satisfies Scenario,
      ]
    : []),
];
