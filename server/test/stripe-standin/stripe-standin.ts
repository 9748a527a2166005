import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkoutPage, completeCheckout, parseCard, successUrl } from './checkout-page.ts';
import { Params, parseForm } from './form-body.ts';
import { type StandinApi, standinApi } from './standin-api.ts';
import { StandinBilling } from './standin-billing.ts';
import { StripeApiError } from './standin-errors.ts';
import { type CheckoutSession, StandinObjects } from './standin-objects.ts';
import { type Deliver, deliverTo, StandinWebhooks } from './standin-webhooks.ts';

// A stand-in for Stripe at the network boundary: a real HTTP server on 127.0.0.1 that the
// official `stripe` SDK talks to (host/port/protocol), with Stripe's REST endpoints, its
// hosted Checkout page, and its signed webhooks. State is in memory; production never
// imports this.

export interface StripeStandinOptions {
  secretKey: string;
  webhookSecret: string;
  /** 0 (any free port) by default. */
  port?: number;
  /** Where webhooks go: a URL, or a function (Vitest: our app through `inject`). */
  webhookUrl?: string;
  deliver?: Deliver;
}

export interface StripeStandin {
  url: string;
  port: number;
  objects: StandinObjects;
  billing: StandinBilling;
  webhooks: StandinWebhooks;
  /** The test control: bills the subscription's next period now (`fail`: the charge fails). */
  renew(subscriptionId: string, options?: { fail?: boolean }): Promise<void>;
  /** Pays a Checkout Session as the customer would on its page (4242 by default). */
  payCheckout(sessionId: string, card?: string): Promise<Response>;
  close(): Promise<void>;
}

interface StoredAnswer {
  fingerprint: string;
  status: number;
  body: string;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(
  response: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, {
    'content-type': 'application/json',
    'request-id': `req_${randomBytes(8).toString('hex')}`,
    'stripe-version': '2026-10-28.endive',
    ...headers,
  });
  response.end(body);
}

export async function startStripeStandin(options: StripeStandinOptions): Promise<StripeStandin> {
  const objects = new StandinObjects();
  let baseUrl = '';
  const deliver = options.deliver ?? (options.webhookUrl ? deliverTo(options.webhookUrl) : null);
  const webhooks = new StandinWebhooks(objects, options.webhookSecret, deliver);
  const billing = new StandinBilling(
    objects,
    (type, object, previous) => webhooks.record(type, object, previous),
    (path) => `${baseUrl}${path}`,
  );
  const api: StandinApi = standinApi(
    objects,
    billing,
    (session) => `${baseUrl}/c/pay/${session.id}`,
  );
  const answers = new Map<string, StoredAnswer>();

  async function handleApi(request: IncomingMessage, response: ServerResponse, url: URL) {
    const authorization = request.headers.authorization ?? '';
    if (authorization !== `Bearer ${options.secretKey}`) {
      send(
        response,
        401,
        JSON.stringify({
          error: {
            type: 'invalid_request_error',
            message: 'Invalid API Key provided: sk_test_****',
          },
        }),
      );
      return;
    }
    const method = request.method ?? 'GET';
    const text = method === 'POST' ? await readBody(request) : url.search.slice(1);
    const key = method === 'POST' ? request.headers['idempotency-key'] : undefined;
    const fingerprint = `${method} ${url.pathname} ${text}`;
    if (typeof key === 'string') {
      const stored = answers.get(key);
      if (stored && stored.fingerprint !== fingerprint) {
        send(
          response,
          400,
          JSON.stringify({
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            },
          }),
        );
        return;
      }
      if (stored) {
        send(response, stored.status, stored.body, { 'idempotent-replayed': 'true' });
        return;
      }
    }
    let status = 200;
    let body: string;
    try {
      body = JSON.stringify(
        api.handle({ method, path: url.pathname, params: new Params(parseForm(text)) }),
        null,
        2,
      );
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      status = error.status;
      body = JSON.stringify({ error: error.body }, null, 2);
    }
    if (typeof key === 'string') answers.set(key, { fingerprint, status, body });
    send(response, status, body);
    void webhooks.flush();
  }

  async function handleCheckout(request: IncomingMessage, response: ServerResponse, url: URL) {
    const [, id = '', cancel] = /^\/c\/pay\/([^/]+)(\/cancel)?$/.exec(url.pathname) ?? [];
    const session = objects.get('checkout.session', id);
    if (!session) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Something went wrong</h1>');
      return;
    }
    const html = (status: number, page: string) =>
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    if (request.method === 'GET') {
      html(200, checkoutPage(objects, session));
      return;
    }
    if (cancel) {
      response.writeHead(303, { location: session.cancel_url ?? successUrl(session) }).end();
      return;
    }
    const form = new URLSearchParams(await readBody(request));
    try {
      completeCheckout(objects, billing, session, parseCard(form));
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      await webhooks.flush();
      html(402, checkoutPage(objects, session, error.message, form.get('cardnumber') ?? ''));
      return;
    }
    // Stripe's webhooks are on their way as the customer returns; here they have arrived.
    await webhooks.flush();
    response.writeHead(303, { location: successUrl(session as CheckoutSession) }).end();
  }

  async function renew(subscriptionId: string, renewOptions: { fail?: boolean } = {}) {
    billing.renew(billing.subscription(subscriptionId), { fail: renewOptions.fail ?? false });
    await webhooks.flush();
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://standin');
    const work = async () => {
      if (url.pathname === '/healthz') {
        send(response, 200, '{"ok":true}');
      } else if (url.pathname.startsWith('/v1/')) {
        await handleApi(request, response, url);
      } else if (url.pathname.startsWith('/c/pay/')) {
        await handleCheckout(request, response, url);
      } else if (
        request.method === 'POST' &&
        /^\/_standin\/subscriptions\/[^/]+\/renew$/.test(url.pathname)
      ) {
        const id = url.pathname.split('/')[3] ?? '';
        await renew(id, { fail: url.searchParams.get('fail') === 'true' });
        send(response, 200, JSON.stringify(objects.present(billing.subscription(id))));
      } else {
        send(
          response,
          404,
          JSON.stringify({
            error: { type: 'invalid_request_error', message: 'Unrecognized request URL.' },
          }),
        );
      }
    };
    work().catch((error: unknown) => {
      if (error instanceof StripeApiError) {
        send(response, error.status, JSON.stringify({ error: error.body }));
        return;
      }
      send(response, 500, JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    url: baseUrl,
    port,
    objects,
    billing,
    webhooks,
    renew,
    async payCheckout(sessionId, card = '4242424242424242') {
      return fetch(`${baseUrl}/c/pay/${sessionId}`, {
        method: 'POST',
        body: new URLSearchParams({ cardnumber: card, exp: '12 / 34', cvc: '123', name: 'Test' }),
        redirect: 'manual',
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
