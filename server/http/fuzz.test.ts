import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '#shared/contracts/endpoint.ts';
import { describeRequest, type FuzzRequest, requestsFor } from '../test/fuzz-inputs.ts';
import { createTestApp } from '../test/test-app.ts';
import { startTestOpenIdProvider } from '../test/test-openid-provider.ts';
import { signedInUser } from '../test/test-sessions.ts';
import { createTestServer } from '../test/vpn-kit.ts';
import type { RegisteredRoute } from './route-access.ts';

// Bad input never answers 5xx: every declared endpoint (config.endpoint of app.routeList) is
// sent generated bodies, queries and path parameters — shaped by its declaration, or wrong on
// purpose (server/test/fuzz-inputs.ts) — as a visitor and as each role. A 5xx fails the
// route's test with the role and the (shrunk) input; fast-check prints the seed to replay it.

const APP_URL = 'http://localhost:3000';

// Social sign-in switched on against a real (local) OpenID provider, so the OAuth routes get
// past "provider disabled" to their own checks.
const google = await startTestOpenIdProvider({
  redirectUri: `${APP_URL}/api/public/v1/oauth-client/callback/google`,
});
afterAll(() => google.close());

const { app } = await createTestApp({
  APP_URL,
  OAUTH_GOOGLE_CLIENT_ID: google.clientId,
  OAUTH_GOOGLE_CLIENT_SECRET: google.clientSecret,
  OAUTH_GOOGLE_ISSUER: google.issuer,
});

const ROLES = ['anonymous', 'USER', 'AUTHOR', 'ADMIN', 'VPN_SERVER', 'VPN node'] as const;
type Caller = (typeof ROLES)[number];

/** A VPN node calls with its server's bearer token and no session (the node API's callers). */
const NODE = await createTestServer(app);

/** At least this many requests a run, spread evenly over the declared routes. */
const TOTAL_REQUESTS = 10_000;

const routes = app.routeList.filter(
  (route): route is RegisteredRoute & { config: { endpoint: Endpoint } } =>
    route.config?.endpoint !== undefined,
);
const RUNS_PER_ROUTE = Math.ceil(TOTAL_REQUESTS / routes.length);

let sent = 0;

async function send(method: string, request: FuzzRequest, caller: Caller, cookie?: string) {
  sent += 1;
  const headers: Record<string, string> = { 'x-requested-with': 'fetch', 'user-agent': 'fuzz' };
  if (cookie) headers.cookie = cookie;
  if (caller === 'VPN node') Object.assign(headers, NODE.authorization);
  let payload: string | Buffer | undefined;
  const body = request.body;
  if (body?.kind === 'json') {
    payload = JSON.stringify(body.value);
    headers['content-type'] = body.contentType;
  } else if (body?.kind === 'raw') {
    payload = body.text;
    if (body.contentType) headers['content-type'] = body.contentType;
  } else if (body?.kind === 'multipart') {
    const form = new FormData();
    for (const [name, value] of Object.entries(body.fields)) form.append(name, value);
    if (body.file) form.append('photo', new Blob([body.file]), 'photo.png');
    const encoded = new Request('http://localhost/', { method: 'POST', body: form });
    payload = Buffer.from(await encoded.arrayBuffer());
    headers['content-type'] = encoded.headers.get('content-type') ?? '';
  }
  const response = await app.inject({
    method: method as 'POST',
    url: request.url,
    headers,
    // Each call from its own address, so the per-IP limits do not answer every call 429.
    remoteAddress: `10.${Math.floor(sent / 250) % 250}.${sent % 250}.3`,
    ...(payload === undefined ? {} : { payload }),
  });
  return { status: response.statusCode, body: response.body };
}

describe('fuzzing every declared endpoint', () => {
  for (const route of routes) {
    it(`${route.method} ${route.url} never answers 5xx`, async () => {
      // Sessions of this route's own: a call may sign its caller out or change the account.
      const cookies = new Map<Caller, string>();
      for (const role of ROLES) {
        if (role === 'anonymous' || role === 'VPN node') continue;
        cookies.set(role, (await signedInUser(app, { role })).cookie);
      }
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...ROLES),
          requestsFor(route.config.endpoint, route.url, route.method),
          async (role, request) => {
            const { status, body } = await send(route.method, request, role, cookies.get(role));
            if (status >= 500) {
              throw new Error(
                `${route.method} ${route.url} as ${role} answered ${status} ${body.slice(0, 200)} ` +
                  `to ${describeRequest(request)}`,
              );
            }
          },
        ),
        { numRuns: RUNS_PER_ROUTE },
      );
    }, 60_000);
  }

  it(`sent at least ${TOTAL_REQUESTS} requests`, () => {
    expect(sent).toBeGreaterThanOrEqual(TOTAL_REQUESTS);
  });
});
