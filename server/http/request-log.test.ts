import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_BASES } from '#shared/api-bases.ts';
import { OIDC_PREFIX } from '#shared/contracts/oidc.ts';
import { demoPlan, seedDemoCatalog } from '../modules/billing/demo-catalog.ts';
import { WEBHOOK_QUEUE } from '../platform/payments/sandbox/webhook-delivery.ts';
import { CARDS } from '../test/billing-kit.ts';
import { createTestApp, TEST_QUEUE_TIMINGS } from '../test/test-app.ts';
import { startApp } from '../test/test-realtime.ts';
import { createUser, TEST_PASSWORD } from '../test/test-users.ts';

// Every line the app writes, at the most talkative level, while people sign up, sign in,
// change a password, pay by card, an app calls the OAuth token endpoint and a browser sends
// its cookies: one line per request with what an operator needs, and none of the secrets.

const lines: string[] = [];
const { app, port } = await startApp(
  { LOG_LEVEL: 'trace' },
  { queue: TEST_QUEUE_TIMINGS, logStream: { write: (line) => lines.push(line) } },
);
await seedDemoCatalog(app.db);
const base = `http://127.0.0.1:${port}`;

interface LogLine {
  level: number;
  msg?: string;
  reqId?: string;
  [key: string]: unknown;
}

const parsed = (): LogLine[] => lines.map((line) => JSON.parse(line) as LogLine);
const requestLines = (reqId: string) =>
  parsed().filter((line) => line.reqId === reqId && line.msg === 'request');

const LINE_FIELDS = [
  ...['level', 'time', 'pid', 'hostname', 'reqId', 'msg'],
  ...['route', 'method', 'status', 'durationMs', 'userId', 'err'],
];

interface Answer {
  status: number;
  reqId: string;
  body: unknown;
  setCookie: string[];
}

async function call(
  method: string,
  path: string,
  options: { body?: unknown; form?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { 'x-requested-with': 'fetch', ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  } else if (options.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = options.form;
  }
  const response = await fetch(`${base}${path}`, { method, headers, body });
  const text = await response.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {}
  return {
    status: response.status,
    reqId: response.headers.get('x-request-id') ?? '',
    body: json,
    setCookie: response.headers.getSetCookie(),
  };
}

const cookieOf = (answer: Answer) => {
  const cookie = answer.setCookie.find((value) => value.startsWith('sid='));
  if (!cookie) throw new Error(`no session cookie (${answer.status})`);
  return cookie.split(';', 1)[0] ?? '';
};

describe('request logs', () => {
  it('write one line per request and no secret', async () => {
    const secrets: string[] = [];
    const calls: Array<{ answer: Answer; route: string; method: string; userId?: number }> = [];

    // Sign-up with a password.
    const signUpPassword = `Sign-up#${randomUUID()}`;
    secrets.push(signUpPassword);
    const signUp = await call('POST', `${API_BASES.public}/auth/sign-up`, {
      body: {
        email: `new-${randomUUID()}@example.com`,
        password: signUpPassword,
        password_confirmation: signUpPassword,
      },
    });
    expect(signUp.status).toBe(201);
    const signUpCookie = cookieOf(signUp);
    secrets.push(signUpCookie.slice('sid='.length));
    calls.push({ answer: signUp, route: `${API_BASES.public}/auth/sign-up`, method: 'POST' });

    // Sign-in with a password, then a password change.
    const user = await createUser(app.db);
    secrets.push(TEST_PASSWORD);
    const signIn = await call('POST', `${API_BASES.public}/auth/sign-in`, {
      body: { email: user.email, password: TEST_PASSWORD },
    });
    expect(signIn.status).toBe(200);
    const cookie = cookieOf(signIn);
    const sessionToken = cookie.slice('sid='.length);
    secrets.push(sessionToken);
    calls.push({ answer: signIn, route: `${API_BASES.public}/auth/sign-in`, method: 'POST' });

    const newPassword = `Changed#${randomUUID()}`;
    secrets.push(newPassword);
    const change = await call('POST', `${API_BASES.account}/profile/update-password`, {
      headers: { cookie },
      body: {
        current_password: TEST_PASSWORD,
        password: newPassword,
        password_confirmation: newPassword,
      },
    });
    expect(change.status).toBe(200);
    // The change signs the other sessions out and gives this one a new token.
    const renewed = change.setCookie.some((value) => value.startsWith('sid='));
    const session = renewed ? cookieOf(change) : cookie;
    secrets.push(session.slice('sid='.length));
    calls.push({
      answer: change,
      route: `${API_BASES.account}/profile/update-password`,
      method: 'POST',
      userId: user.id,
    });

    // A card number through the card form's tokenizer, then the order with its token.
    secrets.push(CARDS.visa);
    const tokenized = await call('POST', '/sandbox/v1/tokens', {
      body: { number: CARDS.visa, exp_month: 12, exp_year: 2031, cvc: '123', name: 'Test Buyer' },
    });
    expect(tokenized.status).toBe(200);
    calls.push({ answer: tokenized, route: '/sandbox/v1/tokens', method: 'POST' });
    const plan = await demoPlan(app.db, 'USD', '1 month');
    const checkout = await call('POST', `${API_BASES.account}/billing/subscriptions/create`, {
      headers: { cookie: session },
      body: {
        product_id: plan.id,
        addon_ids: [],
        payment: { service_id: 1, token: (tokenized.body as { id: string }).id },
        idempotency_key: randomUUID(),
        lang: 'en',
      },
    });
    expect(checkout.status).toBe(200);
    calls.push({
      answer: checkout,
      route: `${API_BASES.account}/billing/subscriptions/create`,
      method: 'POST',
      userId: user.id,
    });

    // An app at the OAuth token endpoint with its client secret, and with a bearer token.
    const clientSecret = `client-secret-${randomUUID()}`;
    secrets.push(clientSecret);
    const token = await call('POST', `${OIDC_PREFIX}/token`, {
      headers: {
        authorization: `Basic ${Buffer.from(`some-app:${clientSecret}`).toString('base64')}`,
      },
      form: 'grant_type=client_credentials&scope=openid',
    });
    expect(token.status).toBeGreaterThanOrEqual(400);
    calls.push({ answer: token, route: `${OIDC_PREFIX}/*`, method: 'POST' });
    const bearer = `bearer-${randomUUID()}`;
    secrets.push(bearer);
    const withBearer = await call('POST', `${API_BASES.account}/users/get-auth-user`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(withBearer.status).toBe(401);
    calls.push({
      answer: withBearer,
      route: `${API_BASES.account}/users/get-auth-user`,
      method: 'POST',
    });

    // A browser's cookies on a page and an API call.
    const otherCookie = `tracking-${randomUUID()}`;
    secrets.push(otherCookie);
    const withCookies = await call('POST', `${API_BASES.account}/users/get-auth-user`, {
      headers: { cookie: `${session}; other=${otherCookie}` },
    });
    expect(withCookies.status).toBe(200);
    calls.push({
      answer: withCookies,
      route: `${API_BASES.account}/users/get-auth-user`,
      method: 'POST',
      userId: user.id,
    });
    // A one-time secret in a link's query (e-mailed links carry them so).
    const challenge = `challenge-${randomUUID()}`;
    secrets.push(challenge);
    const page = await call('GET', `/en/dashboard?challenge=${challenge}`, {
      headers: { cookie: `${session}; other=${otherCookie}` },
    });
    calls.push({ answer: page, route: 'unmatched', method: 'GET' });

    // The webhook the payment sent runs as a job, for the checkout's request.
    await app.queue.drain();

    const all = parsed();
    if (process.env.SHOW_LOG_LINES) console.log(lines.join(''));
    expect(all.length).toBeGreaterThan(calls.length);
    for (const line of lines) {
      for (const secret of secrets) expect(line).not.toContain(secret);
    }

    for (const { answer, route, method, userId } of calls) {
      expect(answer.reqId).not.toBe('');
      const [line, ...more] = requestLines(answer.reqId);
      expect(more).toHaveLength(0);
      expect(line).toMatchObject({
        level: answer.status >= 500 ? 50 : 30,
        route,
        method,
        status: answer.status,
      });
      expect(line?.durationMs).toEqual(expect.any(Number));
      if (userId !== undefined) expect(line?.userId).toBe(userId);
      // Only the fields it means to write: nothing of the request itself.
      for (const key of Object.keys(line ?? {})) expect(LINE_FIELDS).toContain(key);
    }

    // The checkout's job (the sandbox's webhook) logged for the checkout's request, and so
    // did the mail the sign-up sent from inside its request.
    const job = all.find(
      (line) =>
        line.msg === 'job done' && line.job === WEBHOOK_QUEUE && line.reqId === checkout.reqId,
    );
    expect(job).toMatchObject({ level: 30, durationMs: expect.any(Number) });
    const mail = all.find((line) => line.component === 'mailer' && line.reqId === signUp.reqId);
    expect(mail?.msg).toMatch(/mail/);
  });

  it('keep health checks quiet and file a 404 as unmatched', async () => {
    const health = await call('GET', '/healthz');
    const ready = await call('GET', '/readyz');
    expect([health.status, ready.status]).toEqual([200, 200]);
    expect(requestLines(health.reqId)).toHaveLength(0);
    expect(requestLines(ready.reqId)).toHaveLength(0);

    const missing = await call('GET', `${API_BASES.public}/no/such/thing/person@example.com`);
    expect(missing.status).toBe(404);
    const [line] = requestLines(missing.reqId);
    expect(line).toMatchObject({ level: 30, route: 'unmatched', status: 404 });
    expect(JSON.stringify(line)).not.toContain('person@example.com');
  });

  it('write a client error with its cause at info', async () => {
    const badJson = await fetch(`${base}${API_BASES.public}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'fetch' },
      body: '{"email": ',
    });
    expect(badJson.status).toBe(400);
    const [bad] = requestLines(badJson.headers.get('x-request-id') ?? '');
    expect(bad).toMatchObject({ level: 30, status: 400, err: { message: expect.any(String) } });

    app.log.info('a line outside any request');
    const outside = parsed().find((line) => line.msg === 'a line outside any request');
    expect(outside?.reqId).toBeUndefined();
  });

  it('write our own fault at error with the error, and carry the id into a job and its mail', async () => {
    const faults: string[] = [];
    const { app: other } = await createTestApp(
      { LOG_LEVEL: 'info' },
      async (scope) => {
        scope.get('/test/fault/:id', async () => {
          throw new Error('the disk is on fire');
        });
        // A request that leaves its mail to a job, as list mailings and retries do.
        await scope.queue.work('test.notice', async (job) => {
          const { to } = job.data as { to: string };
          await scope.mailer.send({
            template: 'password_changed',
            to,
            locale: 'en',
            data: { name: 'Someone' },
          });
        });
        scope.post('/test/notice', async () => {
          await scope.queue.send('test.notice', { to: 'notice@example.com' });
          return { queued: true };
        });
      },
      { logStream: { write: (line) => faults.push(line) }, queue: TEST_QUEUE_TIMINGS },
    );
    const linesOf = (reqId: string) =>
      faults.map((line) => JSON.parse(line) as LogLine).filter((line) => line.reqId === reqId);

    const answer = await other.inject({ method: 'GET', url: '/test/fault/42' });
    expect(answer.statusCode).toBe(500);
    expect(answer.body).not.toContain('fire');
    // One line: the request's, with the error and its stack.
    const mine = linesOf(String(answer.headers['x-request-id']));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      level: 50,
      msg: 'request',
      route: '/test/fault/:id',
      status: 500,
      err: { message: 'the disk is on fire', stack: expect.stringContaining('Error') },
    });

    const notice = await other.inject({ method: 'POST', url: '/test/notice' });
    expect(notice.statusCode).toBe(200);
    await other.queue.drain();
    // The request's line, the job's mail and the job's own line (the job may start before
    // the answer's line is written).
    const traced = linesOf(String(notice.headers['x-request-id']));
    expect(traced).toHaveLength(3);
    expect(traced).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ msg: 'request', route: '/test/notice', status: 200 }),
        expect.objectContaining({ component: 'mailer', to: 'notice@example.com' }),
        expect.objectContaining({ component: 'queue', msg: 'job done', job: 'test.notice' }),
      ]),
    );
  });
});
