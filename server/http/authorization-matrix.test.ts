import { describe, expect, it } from 'vitest';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import type { Access, Endpoint } from '#shared/contracts/endpoint.ts';
import { passkeyEndpoints } from '#shared/contracts/passkeys.ts';
import { vpnEndpoints } from '#shared/contracts/vpn.ts';
import type { Permission } from '#shared/permissions.ts';
import { connectedApps } from '../modules/oidc/connected-apps.ts';
import { createOAuthClient } from '../modules/oidc/oauth-clients-service.ts';
import { BUILT_IN_APP_ID } from '../platform/realtime/pusher-app.ts';
import { endpointClient } from '../test/api-client.ts';
import { openShop } from '../test/billing-kit.ts';
import { inputNames } from '../test/endpoint-inputs.ts';
import { familyRecordProbes } from '../test/family-probes.ts';
import { addPasskey } from '../test/passkey-kit.ts';
import { createTestApp } from '../test/test-app.ts';
import { sessionFor, signedInUser, type TestSession } from '../test/test-sessions.ts';
import { TEST_PASSWORD } from '../test/test-users.ts';
import { createTestServer, grantAccess, wireGuardKeyPair } from '../test/vpn-kit.ts';
import type { RegisteredRoute } from './route-access.ts';

// DESIGN "Growing the house": access is denied by default, and this one table-driven test
// calls every route the app serves (app.routeList: the API, its documents, health, media, the
// web app's files and the realtime events API) as every kind of caller, and compares the
// answer with the route's declared access. The expectations are written out below, not
// computed by server/http/access.ts, so the gate and this table check each other.
//
// A refusal is 401 for a visitor (signing in could help) and 403 for a signed-in caller
// (it could not). Anything else counts as allowed: allowed calls are sent an invalid input,
// so they stop at validation (422) and change nothing; some legitimately answer 400, 404,
// 409 or 429 instead. A route that takes no input to invalidate is called with a session of
// its own, made for that call.

const { app } = await createTestApp();
const shop = await openShop(app);

const IN_30_DAYS = new Date(Date.now() + 30 * 86_400_000);

/** Who calls: a visitor, each role, and the standings that change what a person may do. */
const CALLERS = {
  anonymous: undefined,
  USER: { role: 'USER' },
  'USER (unverified)': { role: 'USER', emailVerifiedAt: null },
  'USER (deactivated)': { role: 'USER', deleteAt: IN_30_DAYS },
  AUTHOR: { role: 'AUTHOR' },
  ADMIN: { role: 'ADMIN' },
  'ADMIN (deactivated)': { role: 'ADMIN', deleteAt: IN_30_DAYS },
  VPN_SERVER: { role: 'VPN_SERVER' },
  // A VPN node as it really calls: its bearer token and no session at all.
  'VPN node (token only)': undefined,
} as const;
type CallerName = keyof typeof CALLERS;
const CALLER_NAMES = Object.keys(CALLERS) as CallerName[];

/** Callers that carry a node's bearer token (a node of its own, enrolled and online). */
const NODE_TOKEN = (await createTestServer(app)).authorization;
const WITH_NODE_TOKEN: readonly CallerName[] = ['VPN_SERVER', 'VPN node (token only)'];
/** Callers without a session: a refusal is 401 for them, signing in could help. */
const WITHOUT_SESSION: readonly CallerName[] = ['anonymous', 'VPN node (token only)'];

// ---------------------------------------------------------------------------------------
// The expectation table: who may call a route of each declared access.

/** Everyone who signs in to the site, in any standing; not VPN_SERVER, a machine. */
const PEOPLE: readonly CallerName[] = [
  'USER',
  'USER (unverified)',
  'USER (deactivated)',
  'AUTHOR',
  'ADMIN',
  'ADMIN (deactivated)',
];

const MAY_CALL: Record<Exclude<Access, object | 'own-signature'>, readonly CallerName[]> = {
  public: CALLER_NAMES,
  'signed-in': PEOPLE,
  active: ['USER', 'USER (unverified)', 'AUTHOR', 'ADMIN'],
  verified: ['USER', 'AUTHOR', 'ADMIN'],
  // The node API: a node's token opens it, a person's session never (node-auth.ts).
  node: WITH_NODE_TOKEN,
};

/**
 * §6 and DESIGN, restated on purpose rather than read from shared/permissions.ts: admin
 * only for customers, commerce, statistics, logs, servers, OAuth and notification lists;
 * admin and author for the dashboard, the CMS and their own account; the CMS's settings (may
 * authors publish) are the admin's. A new permission does
 * not compile until it has a line here.
 */
const PERMISSION_HOLDERS: Record<Permission, readonly ('ADMIN' | 'AUTHOR')[]> = {
  dashboard: ['ADMIN', 'AUTHOR'],
  ownAccount: ['ADMIN', 'AUTHOR'],
  content: ['ADMIN', 'AUTHOR'],
  contentSettings: ['ADMIN'],
  customers: ['ADMIN'],
  commerce: ['ADMIN'],
  statistics: ['ADMIN'],
  logs: ['ADMIN'],
  servers: ['ADMIN'],
  oauth: ['ADMIN'],
  notificationLists: ['ADMIN'],
};

const DASHBOARD_BASE = '/api/dashboard/v1/';
/** The dashboard base is staff's alone, whatever a route on it declares. */
const STAFF: readonly CallerName[] = ['AUTHOR', 'ADMIN', 'ADMIN (deactivated)'];

const DEACTIVATED: readonly CallerName[] = ['USER (deactivated)', 'ADMIN (deactivated)'];

function mayCall(access: Exclude<Access, 'own-signature'>, caller: CallerName): boolean {
  if (typeof access === 'string') return MAY_CALL[access].includes(caller);
  const role = CALLERS[caller]?.role;
  const holds = PERMISSION_HOLDERS[access.permission].some((holder) => holder === role);
  return holds && (access.deactivated === true || !DEACTIVATED.includes(caller));
}

type Expected = 'allowed' | 401 | 403 | 'refused-whatever-the-session';

function expected(route: RegisteredRoute, caller: CallerName): Expected {
  // A machine route proves its caller by its own signature: no session opens it.
  if (route.access === 'own-signature') return 'refused-whatever-the-session';
  const allowed =
    mayCall(route.access, caller) &&
    (!route.url.startsWith(DASHBOARD_BASE) || STAFF.includes(caller));
  if (allowed) return 'allowed';
  return WITHOUT_SESSION.includes(caller) ? 401 : 403;
}

function meets(status: number, expectation: Expected): boolean {
  if (expectation === 'refused-whatever-the-session')
    return (status < 200 || status >= 300) && status < 500;
  if (expectation === 'allowed') return status !== 401 && status !== 403 && status < 500;
  return status === expectation;
}

function describeAccess(access: Access): string {
  return typeof access === 'string' ? access : JSON.stringify(access);
}

// ---------------------------------------------------------------------------------------
// How each route is called.

/** Harmless values for path parameters; any other parameter gets `1`. */
const PARAM_VALUES: Record<string, string> = {
  provider: 'google',
  // The real app id, so the events API reaches its signature check rather than a 404.
  appId: BUILT_IN_APP_ID,
  channel: 'presence-system-events.1',
};
const WILDCARD_VALUE = 'matrix-probe.png';

function fillUrl(url: string): string {
  return url
    .replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) =>
      encodeURIComponent(PARAM_VALUES[name] ?? '1'),
    )
    .replace(/\*$/, WILDCARD_VALUE);
}

/** Bodies the declared schema refuses, tried in order: the first it refuses is sent. */
const INVALID_BODIES: readonly unknown[] = [[], 0, 'matrix', {}, null];

function invalidBody(endpoint: Endpoint): string | undefined {
  const schema = endpoint.body;
  if (!schema) return undefined;
  const refused = INVALID_BODIES.find((candidate) => !schema.safeParse(candidate).success);
  return refused === undefined ? undefined : JSON.stringify(refused);
}

interface CallPlan {
  method: string;
  url: string;
  /** A JSON body the route's schema refuses. */
  payload: string | undefined;
  /** The call may act (nothing to invalidate): it gets a session made for it alone. */
  ownSession: boolean;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

function planFor(route: RegisteredRoute): CallPlan {
  const endpoint = route.config?.endpoint;
  const payload = endpoint ? invalidBody(endpoint) : undefined;
  return {
    method: route.method,
    url: fillUrl(route.url),
    payload,
    ownSession: !SAFE.has(route.method) && payload === undefined,
  };
}

let calls = 0;

/** One call as the browser makes it (CSRF header, cookie), each from its own address. */
async function send(
  method: string,
  url: string,
  options: {
    cookie?: string | undefined;
    payload?: string | undefined;
    headers?: Record<string, string>;
  } = {},
) {
  calls += 1;
  const response = await app.inject({
    method: method as 'GET',
    url,
    remoteAddress: `10.${Math.floor(calls / 250) % 250}.${calls % 250}.9`,
    headers: {
      'x-requested-with': 'fetch',
      'user-agent': 'matrix-agent',
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.payload === undefined ? {} : { payload: options.payload }),
  });
  return { status: response.statusCode, body: response.body };
}

/** One session per caller, made once for the whole matrix. */
const sessions = new Map<CallerName, TestSession>();
for (const name of CALLER_NAMES) {
  const overrides = CALLERS[name];
  if (overrides) sessions.set(name, await signedInUser(app, overrides));
}

async function cookieFor(caller: CallerName, plan: CallPlan): Promise<string | undefined> {
  const overrides = CALLERS[caller];
  if (!overrides) return undefined;
  if (plan.ownSession) return (await signedInUser(app, overrides)).cookie;
  return sessions.get(caller)?.cookie;
}

const WHO_AM_I = '/api/account/v1/users/get-auth-user';

describe('authorization matrix', () => {
  it('covers every kind of route', () => {
    const urls = app.routeList.map((route) => route.url);
    for (const url of ['/healthz', '/media/*', '/api/docs/json', '/apps/:appId/events', WHO_AM_I]) {
      expect(urls).toContain(url);
    }
    const kinds = new Set(app.routeList.map((route) => describeAccess(route.access)));
    for (const kind of ['public', 'signed-in', 'active', 'own-signature', 'node']) {
      expect(kinds).toContain(kind);
    }
  });

  it('answers every route as its declared access says, for every caller', async () => {
    const wrong: string[] = [];
    const started = calls;
    const routes = app.routeList;
    // A few routes at a time: each answers all callers, and the database is not flooded.
    for (let at = 0; at < routes.length; at += 8) {
      await Promise.all(
        routes.slice(at, at + 8).map(async (route) => {
          const plan = planFor(route);
          for (const caller of CALLER_NAMES) {
            const expectation = expected(route, caller);
            const cookie = await cookieFor(caller, plan);
            const { status, body } = await send(plan.method, plan.url, {
              cookie,
              payload: plan.payload,
              ...(WITH_NODE_TOKEN.includes(caller) ? { headers: NODE_TOKEN } : {}),
            });
            if (!meets(status, expectation)) {
              wrong.push(
                `${route.method} ${route.url} (access ${describeAccess(route.access)}) as ` +
                  `${caller}: expected ${expectation}, got ${status} ${body.slice(0, 200)}`,
              );
            }
          }
        }),
      );
    }
    expect(wrong, `calls that disagree with the declared access:\n${wrong.join('\n')}`).toEqual([]);
    expect(calls - started).toBeGreaterThanOrEqual(routes.length * CALLER_NAMES.length);
  }, 60_000);

  it('changed nothing for the callers whose sessions it shared', async () => {
    for (const caller of PEOPLE) {
      const { status } = await send('POST', WHO_AM_I, { cookie: sessions.get(caller)?.cookie });
      expect(status, caller).toBe(200);
    }
  });
});

// ---------------------------------------------------------------------------------------
// Record probes: a route that takes the id of a record that belongs to someone must refuse
// that id to anyone else.

/** An input that names a record: `id`, or a name ending in `_id` (or `Id`). */
const RECORD_ID = /^id$|_id$|[a-z]Id$/;

type Role = 'USER' | 'AUTHOR' | 'ADMIN';

/**
 * Issue 24 connected apps: user B names the grant of an app user A allowed. It must stay
 * (A's list still shows it); A's own call then signs the app out.
 */
async function grantProbe(url: string, _owner: Role, intruder: Role): Promise<void> {
  const owner = await signedInUser(app);
  const { client } = await createOAuthClient(app.db, app.oidcClientBox, {
    name: 'Probe app',
    type: 'public',
    firstParty: true,
    redirectUris: [],
    grantTypes: ['refresh_token'],
    scopes: ['openid'],
  });
  const provider = await app.oidc.current();
  const grant = new provider.Grant({ accountId: String(owner.user.id), clientId: client.clientId });
  grant.addOIDCScope('openid');
  const grantId = await grant.save();
  const body = JSON.stringify({ grant_id: grantId });
  const other = await signedInUser(app, { role: intruder });
  const attempt = await send('POST', url, { cookie: other.cookie, payload: body });
  expect([403, 404], `${intruder} revoking an app of a customer: ${attempt.body}`).toContain(
    attempt.status,
  );
  expect(await connectedApps(app.db, owner.user.id)).toHaveLength(1);
  const own = await send('POST', url, { cookie: owner.cookie, payload: body });
  expect(own.status, own.body).toBe(200);
  expect(await connectedApps(app.db, owner.user.id)).toHaveLength(0);
}

interface RecordProbe {
  /** The inputs (`part.name`) of the route that the probe exercises. */
  fields: readonly string[];
  /** Who owns the record and who tries to use it. */
  cases: readonly { owner: Role; intruder: Role }[];
  run: (url: string, owner: Role, intruder: Role) => Promise<void>;
}

function mayUse(url: string, role: Role): boolean {
  return !url.startsWith(DASHBOARD_BASE) || role !== 'USER';
}

/**
 * §4 devices: user B names one of user A's devices. It must not sign A's device out: the
 * answer is 404 or 403 and A's session still works. The owner's own call then succeeds, so
 * the refusal was about whose device it is, not about a malformed call.
 */
async function deviceProbe(url: string, owner: Role, intruder: Role): Promise<void> {
  const ownerSession = await signedInUser(app, { role: owner });
  const device = await sessionFor(app, ownerSession.user, '192.0.2.77');
  const other = await signedInUser(app, { role: intruder });
  const body = JSON.stringify({ id: device.sessionId, password: TEST_PASSWORD });

  const attempt = await send('POST', url, { cookie: other.cookie, payload: body });
  expect([403, 404], `${intruder} signing out a device of ${owner}: ${attempt.body}`).toContain(
    attempt.status,
  );
  expect((await send('POST', WHO_AM_I, { cookie: device.cookie })).status).toBe(200);

  if (mayUse(url, owner)) {
    const own = await send('POST', url, { cookie: ownerSession.cookie, payload: body });
    expect(own.status, own.body).toBe(200);
    expect((await send('POST', WHO_AM_I, { cookie: device.cookie })).status).toBe(401);
  }
}

/** A customer who bought a plan with a new card: their saved cards and first invoice. */
async function buyer() {
  const session = await signedInUser(app);
  const bought = await shop.buy(session);
  expect(bought.status, bought.text).toBe(200);
  const cards = (await shop.call(billingEndpoints.cards, { cookie: session.cookie })).data.items;
  const invoices = (await shop.call(billingEndpoints.invoices, { cookie: session.cookie })).data
    .items;
  const [card] = cards;
  const [invoice] = invoices;
  if (!card || !invoice) throw new Error('the purchase left no card or invoice');
  return { session, cards, cardId: card.card_id, invoiceId: invoice.invoice_id };
}

/** What each card route is sent, naming the card. */
function cardBody(url: string, cardId: string, productId: number): unknown {
  if (url.endsWith('/cards/update')) return { card_id: cardId, exp_month: 1, exp_year: 2035 };
  if (url.endsWith('/subscriptions/fix'))
    return { card_id: cardId, idempotency_key: crypto.randomUUID() };
  if (url.includes('/subscriptions/')) {
    return {
      product_id: productId,
      payment: { service_id: 1, card_id: cardId },
      idempotency_key: crypto.randomUUID(),
    };
  }
  return { card_id: cardId };
}

/**
 * §3 card sources: user B names user A's saved card (to change, remove, make default, pay
 * with). Refused with 404 or 403, and A's cards are exactly as they were.
 */
async function cardProbe(url: string, _owner: Role, intruder: Role): Promise<void> {
  const owner = await buyer();
  const other = await signedInUser(app, { role: intruder });
  const plan = await shop.plan('1 month');
  const payload = JSON.stringify(cardBody(url, owner.cardId, plan.id));
  const attempt = await send('POST', url, { cookie: other.cookie, payload });
  expect([403, 404], `${intruder} using a card of a customer: ${attempt.body}`).toContain(
    attempt.status,
  );
  const after = await shop.call(billingEndpoints.cards, { cookie: owner.session.cookie });
  expect(after.data.items).toEqual(owner.cards);
}

/** An invoice PDF: another customer gets a 404, the owner their document. */
async function invoiceProbe(url: string, _owner: Role, intruder: Role): Promise<void> {
  const owner = await buyer();
  const other = await signedInUser(app, { role: intruder });
  const path = url.replace(':invoice_id', String(owner.invoiceId));
  expect((await send('GET', path, { cookie: other.cookie })).status).toBe(404);
  expect((await send('GET', path, { cookie: owner.session.cookie })).status).toBe(200);
}

const CUSTOMER_CASE = [{ owner: 'USER', intruder: 'USER' }] as const;

const callEndpoint = endpointClient(app);

/** What each WireGuard device route is sent, naming the device. */
function vpnDeviceInput(url: string, deviceId: number): { query?: string; body?: unknown } {
  if (url.endsWith('/config')) return { query: `device_id=${deviceId}` };
  if (url.endsWith('/rename')) return { body: { device_id: deviceId, name: 'Taken over' } };
  if (url.endsWith('/move')) return { body: { device_id: deviceId, location: 'fastest' } };
  if (url.endsWith('/rekey')) {
    return { body: { device_id: deviceId, public_key: wireGuardKeyPair().publicKey } };
  }
  return { body: { device_id: deviceId } };
}

/**
 * A customer's WireGuard device: another customer naming it (to see its configuration,
 * rename, move, rekey or remove it) gets 404 or 403, and the owner's devices are as they were.
 */
async function vpnDeviceProbe(url: string, _owner: Role, intruder: Role): Promise<void> {
  const owner = await signedInUser(app);
  await grantAccess(app, owner.user.id);
  const created = await callEndpoint(vpnEndpoints.create, {
    cookie: owner.cookie,
    body: { name: 'Laptop', location: 'NL', public_key: wireGuardKeyPair().publicKey },
  });
  expect(created.status, created.text).toBe(201);
  const deviceId = created.data.device.device_id;
  const list = async () =>
    (await callEndpoint(vpnEndpoints.devices, { cookie: owner.cookie })).data.items;
  const before = await list();
  const other = await signedInUser(app, { role: intruder });
  await grantAccess(app, other.user.id);
  const input = vpnDeviceInput(url, deviceId);
  const method = input.query ? 'GET' : 'POST';
  const target = input.query ? `${url}?${input.query}` : url;
  const payload = input.body === undefined ? undefined : JSON.stringify(input.body);
  const attempt = await send(method, target, { cookie: other.cookie, payload });
  expect([403, 404], `${intruder} using a device of a customer: ${attempt.body}`).toContain(
    attempt.status,
  );
  expect(await list()).toEqual(before);
  const own = await send(method, target, { cookie: owner.cookie, payload });
  expect(own.status, own.body).toBe(200);
}

/**
 * A passkey: another person naming it (to rename or remove it) gets 404 or 403, and the
 * owner's passkeys are as they were; the owner's own call then succeeds.
 */
async function passkeyProbe(url: string, owner: Role, intruder: Role): Promise<void> {
  const ownerSession = await signedInUser(app, { role: owner });
  const { passkey } = await addPasskey(callEndpoint, ownerSession.cookie);
  const list = async () =>
    (await callEndpoint(passkeyEndpoints.list.account, { cookie: ownerSession.cookie })).data.items;
  const before = await list();
  const other = await signedInUser(app, { role: intruder });
  const payload = JSON.stringify(
    url.endsWith('/rename')
      ? { id: passkey.id, name: 'Taken over' }
      : { id: passkey.id, password: TEST_PASSWORD },
  );
  const attempt = await send('POST', url, { cookie: other.cookie, payload });
  expect([403, 404], `${intruder} using a passkey of ${owner}: ${attempt.body}`).toContain(
    attempt.status,
  );
  expect(await list()).toEqual(before);
  if (mayUse(url, owner)) {
    const own = await send('POST', url, { cookie: ownerSession.cookie, payload });
    expect(own.status, own.body).toBe(200);
  }
}

/** Keyed by `METHOD url` as app.routeList names the route. */
const RECORD_PROBES: Record<string, RecordProbe> = {
  'POST /api/account/v1/devices/logout-by-device-id': {
    fields: ['body.id'],
    cases: [{ owner: 'USER', intruder: 'USER' }],
    run: deviceProbe,
  },
  'POST /api/dashboard/v1/devices/logout-by-device-id': {
    fields: ['body.id'],
    cases: [
      { owner: 'AUTHOR', intruder: 'ADMIN' },
      { owner: 'ADMIN', intruder: 'AUTHOR' },
      { owner: 'USER', intruder: 'ADMIN' },
    ],
    run: deviceProbe,
  },
  ...Object.fromEntries(
    [
      'billing/cards/update',
      'billing/cards/delete',
      'users/set-source-as-default',
      'billing/subscriptions/fix',
      'billing/subscriptions/create',
      'billing/subscriptions/reactivate',
      'billing/subscriptions/upgrade-bonus',
    ].map((path) => [
      `POST /api/account/v1/${path}`,
      { fields: ['body.card_id'], cases: CUSTOMER_CASE, run: cardProbe },
    ]),
  ),
  'GET /api/account/v1/billing/invoices/:invoice_id/pdf': {
    fields: ['params.invoice_id'],
    cases: CUSTOMER_CASE,
    run: invoiceProbe,
  },
  ...familyRecordProbes(app, shop, send),
  'POST /api/account/v1/connected-apps/revoke': {
    fields: ['body.grant_id'],
    cases: CUSTOMER_CASE,
    run: grantProbe,
  },
  'GET /api/account/v1/vpn/devices/config': {
    fields: ['query.device_id'],
    cases: CUSTOMER_CASE,
    run: vpnDeviceProbe,
  },
  ...Object.fromEntries(
    ['rename', 'delete'].flatMap((action) => [
      [
        `POST /api/account/v1/passkeys/${action}`,
        { fields: ['body.id'], cases: CUSTOMER_CASE, run: passkeyProbe },
      ],
      [
        `POST /api/dashboard/v1/passkeys/${action}`,
        {
          fields: ['body.id'],
          cases: [
            { owner: 'AUTHOR', intruder: 'ADMIN' },
            { owner: 'ADMIN', intruder: 'AUTHOR' },
            { owner: 'USER', intruder: 'ADMIN' },
          ],
          run: passkeyProbe,
        },
      ],
    ]),
  ),
  ...Object.fromEntries(
    ['rename', 'move', 'rekey', 'delete'].map((action) => [
      `POST /api/account/v1/vpn/devices/${action}`,
      { fields: ['body.device_id'], cases: CUSTOMER_CASE, run: vpnDeviceProbe },
    ]),
  ),
};

/**
 * Inputs named like a record id that name nothing anyone owns, each with the reason; keyed
 * by `METHOD url part.name`.
 */
const NOT_RECORD_IDS: Record<string, string> = {
  'GET /api/public/v1/oauth-client/providers query.client_id':
    'names an OAuth client of ours asking for the list (a public identifier, not a record of the caller)',
  'POST /api/public/v1/oauth-client/auth/token body.provider_id':
    'names a sign-in provider (google, apple), the same for everyone',
  'POST /api/all/v1/broadcasting/auth body.socket_id':
    "names the caller's websocket connection; what gets signed is the caller's own channel, which the route checks",
  'POST /apps/:appId/events params.appId':
    "the realtime app's public id; the route checks its own signature",
  'POST /apps/:appId/batch_events params.appId':
    "the realtime app's public id; the route checks its own signature",
  'GET /apps/:appId/channels/:channel/users params.appId':
    "the realtime app's public id; the route checks its own signature",
  ...Object.fromEntries(
    ['GET', 'POST'].map((method) => [
      `${method} /sandbox/v1/authenticate/:paymentId params.paymentId`,
      "the sandbox's stand-in for a bank's 3-D Secure page, reached by the link only the buyer is sent (a random payment id), as a bank's page is",
    ]),
  ),
  'POST /api/public/v1/help-center/articles/vote body.translation_id':
    'a published help-center article, the same for every visitor; the route takes live articles only',
  'GET /api/public/v1/billing/products query.service_id':
    'a §9 payment service number, the same for everyone',
  'POST /api/public/v1/billing/quote body.product_id': 'a product of the public catalog',
  'GET /api/account/v1/billing/subscriptions/change/preview query.product_id':
    'a product of the public catalog',
  'POST /api/account/v1/billing/subscriptions/change body.product_id':
    'a product of the public catalog',
  ...Object.fromEntries(
    [
      '/api/account/v1/passkeys/registration/verify',
      '/api/dashboard/v1/passkeys/registration/verify',
      '/api/public/v1/passkeys/sign-in/verify',
    ].flatMap((url) =>
      ['id', 'rawId'].map((field) => [
        `POST ${url} body.${field}`,
        "a WebAuthn credential id as the authenticator answers it: a registration's is new, and a sign-in's is only believed with a signature of its key over our challenge",
      ]),
    ),
  ),
  'POST /api/account/v1/users/billing-address/update body.vat_id':
    "the buyer's tax number, typed in, not a record",
  ...Object.fromEntries(
    ['create', 'reactivate', 'upgrade-bonus'].flatMap((action) => [
      [
        `POST /api/account/v1/billing/subscriptions/${action} body.product_id`,
        'a product of the public catalog',
      ],
      [
        `POST /api/account/v1/billing/subscriptions/${action} body.service_id`,
        'a §9 payment service number',
      ],
      [
        `POST /api/account/v1/billing/subscriptions/${action} body.vat_id`,
        "the buyer's tax number, typed in",
      ],
    ]),
  ),
};

/**
 * Whether a permission's holders act on everyone's records by design (§6: an admin opens any
 * customer, staff edit any page), so an id on such a route needs no probe; who holds the
 * permission is what the matrix checks. Not so for one's own account. A new permission does
 * not compile until it has a line here.
 */
const OVER_EVERYONES_RECORDS: Record<Permission, boolean> = {
  ownAccount: false,
  dashboard: true,
  content: true,
  contentSettings: true,
  customers: true,
  commerce: true,
  statistics: true,
  logs: true,
  servers: true,
  oauth: true,
  notificationLists: true,
};

function actsOnEveryonesRecords({ access }: RegisteredRoute): boolean {
  return typeof access === 'object' && OVER_EVERYONES_RECORDS[access.permission];
}

/** Each route once: a HEAD route mirrors its GET. */
function distinctRoutes(): RegisteredRoute[] {
  const gets = new Set(app.routeList.filter((r) => r.method === 'GET').map((r) => r.url));
  return app.routeList.filter((route) => route.method !== 'HEAD' || !gets.has(route.url));
}

function recordIdInputs(): { route: string; field: string }[] {
  return distinctRoutes()
    .filter((route) => !actsOnEveryonesRecords(route))
    .flatMap((route) =>
      inputNames(route.url, route.config?.endpoint)
        .filter(({ name }) => RECORD_ID.test(name))
        .map(({ part, name }) => ({
          route: `${route.method} ${route.url}`,
          field: `${part}.${name}`,
        })),
    );
}

describe('record probes', () => {
  it('has a record probe for every route that takes a record id', () => {
    const missing = recordIdInputs()
      .filter(({ route, field }) => !RECORD_PROBES[route]?.fields.includes(field))
      .filter(({ route, field }) => NOT_RECORD_IDS[`${route} ${field}`] === undefined)
      .map(({ route, field }) => `${route} takes ${field}`);
    expect(
      missing,
      `These routes take the id of a record but have no record probe. Add one to RECORD_PROBES ` +
        `in server/http/authorization-matrix.test.ts: make a record of one user and check that ` +
        `a second user naming it is refused (404 or 403) and the record is untouched. If the id ` +
        `names nothing anyone owns, say why in NOT_RECORD_IDS instead.\n${missing.join('\n')}`,
    ).toEqual([]);
  });

  it('names only routes and inputs that exist', () => {
    const inputs = new Set(recordIdInputs().map(({ route, field }) => `${route} ${field}`));
    const named = [
      ...Object.entries(RECORD_PROBES).flatMap(([route, probe]) =>
        probe.fields.map((field) => `${route} ${field}`),
      ),
      ...Object.keys(NOT_RECORD_IDS),
    ];
    expect(named.filter((entry) => !inputs.has(entry))).toEqual([]);
  });

  for (const [route, probe] of Object.entries(RECORD_PROBES)) {
    const url = route.slice(route.indexOf(' ') + 1);
    for (const { owner, intruder } of probe.cases) {
      it(`${route}: ${intruder} cannot use the record of ${owner}`, async () => {
        await probe.run(url, owner, intruder);
      });
    }
  }
});
