import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { registerVerifiedUser, signIn } from './support/auth.ts';
import {
  createDatabase,
  type ServerProcess,
  startServerProcess,
  testServices,
} from './support/server-processes.ts';

// Two real server processes behind an imaginary load balancer, on one PostgreSQL database and
// one Redis: a page connected to process A hears of a change made through process B, which
// only Redis can have carried (§4 live events; docs/operations/realtime.md "Scale-out").

const found = testServices();
test.skip('missing' in found && !found.required, `skipped: ${'missing' in found && found.missing}`);

const API_HEADERS = { 'x-requested-with': 'fetch' };

let a: ServerProcess | undefined;
let b: ServerProcess | undefined;
let dropDatabase: (() => Promise<void>) | undefined;

test.beforeAll(async () => {
  if ('missing' in found) {
    throw new Error(`${found.missing}: REQUIRE_TEST_SERVICES=1 (or CI) needs both services`);
  }
  test.setTimeout(180_000);
  const database = await createDatabase(found.services.databaseUrl);
  dropDatabase = database.drop;
  const env = { DATABASE_URL: database.url, REDIS_URL: found.services.redisUrl };
  // Both migrate the new database at start-up, one after the other (an advisory lock).
  [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await Promise.all([a?.stop(), b?.stop()]);
  await dropDatabase?.();
});

/**
 * Resolves with the websocket's URL once a socket of the page has joined a channel
 * (`pusher_internal:subscription_succeeded`): from then on the page hears every event.
 */
function channelJoined(page: Page): Promise<string> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      if (!socket.url().includes('/app/')) return;
      socket.on('framereceived', ({ payload }) => {
        if (String(payload).includes('pusher_internal:subscription_succeeded')) {
          resolve(socket.url());
        }
      });
    });
  });
}

async function api(
  request: APIRequestContext,
  path: string,
  data: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const answer = await request.post(path, { headers: API_HEADERS, data });
  expect(answer.status(), `${path}: ${await answer.text()}`).toBe(200);
  return (await answer.json()) as Record<string, unknown>;
}

test('a name changed through process B shows on a page connected to process A, without a reload', async ({
  browser,
  playwright,
}) => {
  if (!a || !b) throw new Error('the server processes did not start');
  const onA = await playwright.request.newContext({ baseURL: a.url });
  const onB = await playwright.request.newContext({ baseURL: b.url });
  const context = await browser.newContext({ baseURL: a.url });
  try {
    const { email, password } = await registerVerifiedUser(onA, 'scale-out');

    const page = await context.newPage();
    const joined = channelJoined(page);
    await signIn(page, email, password);
    await page.goto('/en/account/security');
    // The page's socket is on A, and nowhere else.
    expect(new URL(await joined).port).toBe(String(a.port));
    await expect(page.getByTestId('avatar-button')).toBeVisible();
    // Gone if the page reloads.
    await page.evaluate('window.__beforeTheChange = true');

    // The same user signed in on B (a phone, another tab behind the balancer) renames.
    await api(onB, '/api/public/v1/auth/sign-in', { email, password });
    const { user } = (await api(onB, '/api/account/v1/users/get-auth-user')) as {
      user: { username: string; email: string };
    };
    await api(onB, '/api/account/v1/profile/update', {
      name: 'Scaled Out',
      username: user.username,
      email: user.email,
    });

    await expect(page.getByTestId('avatar-button')).toContainText('Scaled Out');
    expect(await page.evaluate('window.__beforeTheChange')).toBe(true);
  } finally {
    await context.close();
    await onA.dispose();
    await onB.dispose();
  }
});
