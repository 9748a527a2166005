import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../http/types.ts';
import { TEST_CLOCK_PATH } from '../platform/payments/sandbox/test-clock-routes.ts';
import { signedInUser, type TestSession } from './test-sessions.ts';

// The sandbox's test clock is an admin's, called as the browser calls: an admin's session
// cookie and the CSRF header. One admin per app, made on first use.

const admins = new WeakMap<App, Promise<TestSession>>();

function adminOf(app: App): Promise<TestSession> {
  let admin = admins.get(app);
  if (!admin) {
    admin = signedInUser(app, { role: 'ADMIN' });
    admins.set(app, admin);
  }
  return admin;
}

async function asAdmin(
  app: App,
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
): Promise<LightMyRequestResponse> {
  const { cookie } = await adminOf(app);
  return app.inject({
    method,
    url,
    headers: { 'x-requested-with': 'fetch', cookie },
    ...(payload ? { payload } : {}),
  });
}

/** GET the test clock: `{ now }`. */
export function readTestClock(app: App): Promise<LightMyRequestResponse> {
  return asAdmin(app, 'GET', TEST_CLOCK_PATH);
}

/** Moves the test clock forward; answers once what came due has run. */
export function advanceTestClock(
  app: App,
  by: { days?: number; seconds?: number },
): Promise<LightMyRequestResponse> {
  return asAdmin(app, 'POST', `${TEST_CLOCK_PATH}/advance`, by);
}
