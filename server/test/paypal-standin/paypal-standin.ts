import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { approvalPage } from './approval-page.ts';
import {
  Books,
  type Capture,
  cents,
  money,
  type Outgoing,
  type Plan,
  paypalId,
  type Refund,
  remaining,
  type Subscription,
  subscriptionJson,
} from './standin-books.ts';
import {
  createSigningCertificate,
  type SigningCertificate,
  signPayPalWebhook,
} from './test-certificate.ts';

// A local PayPal at the network boundary: the REST endpoints our adapter calls (OAuth client
// credentials, catalog products, billing plans, subscriptions, v2 captures and refunds) with
// PayPal's JSON and error shapes and PayPal-Request-Id idempotency; the buyer's approval page;
// and webhooks signed as PayPal signs them, with a test certificate served from here.

export interface PayPalStandInOptions {
  clientId: string;
  clientSecret: string;
  /** The id PayPal gave our webhook: part of what each webhook's signature covers. */
  webhookId: string;
  /** Posts each webhook here… */
  webhookUrl?: string;
  /** …or hands it to this (app.inject in Vitest); answers the HTTP status. */
  deliver?: (headers: Record<string, string>, body: string) => Promise<number>;
  port?: number;
  now?: () => Date;
}

export interface Delivery {
  type: string;
  body: string;
  headers: Record<string, string>;
  status: number;
}

export interface PayPalStandIn {
  origin: string;
  certUrl: string;
  certificate: SigningCertificate;
  books: Books;
  deliveries: Delivery[];
  /** The buyer approves on PayPal's page (as the Approve button does). */
  approve(subscriptionId: string): Promise<void>;
  /** The next cycle's payment, taken or failed. */
  renew(subscriptionId: string, outcome: 'paid' | 'failed'): Promise<void>;
  /** Sends an event now (for tests of PayPal's own changes). */
  send(outgoing: Outgoing[]): Promise<void>;
  /** Headers for a body as PayPal would sign it (for forged and stale webhooks in tests). */
  sign(
    body: string,
    options?: { time?: Date; certUrl?: string; webhookId?: string },
  ): Record<string, string>;
  close(): Promise<void>;
}

class PayPalError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.name ?? body.error));
  }
}

const debugId = () => randomUUID().replace(/-/g, '').slice(0, 13);

function notFound(): PayPalError {
  return new PayPalError(404, {
    name: 'RESOURCE_NOT_FOUND',
    message: 'The specified resource does not exist.',
    debug_id: debugId(),
    details: [
      { issue: 'INVALID_RESOURCE_ID', description: 'Requested resource ID was not found.' },
    ],
  });
}

function unprocessable(issue: string, description: string): PayPalError {
  return new PayPalError(422, {
    name: 'UNPROCESSABLE_ENTITY',
    message:
      'The requested action could not be performed, semantically incorrect, or failed business validation.',
    debug_id: debugId(),
    details: [{ issue, description }],
  });
}

function invalid(field: string, issue: string): PayPalError {
  return new PayPalError(400, {
    name: 'INVALID_REQUEST',
    message: 'Request is not well-formed, syntactically incorrect, or violates schema.',
    debug_id: debugId(),
    details: [{ field, location: 'body', issue, description: `${field}: ${issue}` }],
  });
}

const CERT_PATH = '/v1/notifications/certs/CERT-360caa42-fca2a594-standin';

export async function startPayPalStandIn(options: PayPalStandInOptions): Promise<PayPalStandIn> {
  const books = new Books(options.now);
  const certificate = createSigningCertificate();
  const tokens = new Set<string>();
  const deliveries: Delivery[] = [];
  let origin = '';
  let certUrl = '';

  const sign: PayPalStandIn['sign'] = (body, overrides = {}) =>
    signPayPalWebhook(body, {
      webhookId: overrides.webhookId ?? options.webhookId,
      privateKeyPem: certificate.privateKeyPem,
      certUrl: overrides.certUrl ?? certUrl,
      ...(overrides.time ? { time: overrides.time } : {}),
    });

  async function send(outgoing: Outgoing[]): Promise<void> {
    for (const event of outgoing) {
      const body = JSON.stringify({
        id: `WH-${paypalId('', 17)}-${paypalId('', 17)}`,
        event_version: '1.0',
        create_time: books.now().toISOString(),
        resource_type: event.resource_type,
        resource_version: event.resource_type === 'subscription' ? '2.0' : '1.0',
        event_type: event.event_type,
        summary: event.summary,
        resource: event.resource,
        links: [],
      });
      const headers = sign(body);
      let status = 0;
      try {
        if (options.deliver) status = await options.deliver(headers, body);
        else if (options.webhookUrl) {
          const response = await fetch(options.webhookUrl, { method: 'POST', headers, body });
          status = response.status;
        }
      } catch {
        status = 0;
      }
      deliveries.push({ type: event.event_type, body, headers, status });
    }
  }

  const subscriptionOf = (id: string) => {
    const found = books.subscriptions.get(id);
    if (!found) throw notFound();
    return found;
  };

  function planJson(plan: Plan) {
    return {
      ...plan,
      usage_type: 'LICENSED',
      quantity_supported: false,
      links: [{ href: `${origin}/v1/billing/plans/${plan.id}`, rel: 'self', method: 'GET' }],
    };
  }

  function captureJson(capture: Capture) {
    const { subscription_id: _subscription, refunded: _refunded, ...shown } = capture;
    return {
      ...shown,
      final_capture: true,
      seller_receivable_breakdown: { gross_amount: capture.amount, net_amount: capture.amount },
      links: [
        { href: `${origin}/v2/payments/captures/${capture.id}`, rel: 'self', method: 'GET' },
        {
          href: `${origin}/v2/payments/captures/${capture.id}/refund`,
          rel: 'refund',
          method: 'POST',
        },
      ],
    };
  }

  function refundJson(refund: Refund) {
    const { capture_id, total_refunded, ...shown } = refund;
    return {
      ...shown,
      seller_payable_breakdown: {
        gross_amount: refund.amount,
        net_amount: refund.amount,
        total_refunded_amount: total_refunded,
      },
      links: [
        { href: `${origin}/v2/payments/refunds/${refund.id}`, rel: 'self', method: 'GET' },
        { href: `${origin}/v2/payments/captures/${capture_id}`, rel: 'up', method: 'GET' },
      ],
    };
  }

  function requireState(
    subscription: Subscription,
    allowed: Subscription['status'][],
    action: string,
  ) {
    if (!allowed.includes(subscription.status)) {
      throw unprocessable(
        'SUBSCRIPTION_STATUS_INVALID',
        `Invalid subscription status for ${action} action; subscription status should be ${allowed.join(' or ').toLowerCase()}.`,
      );
    }
  }

  type Handler = (
    match: string[],
    body: Record<string, unknown>,
    request: IncomingMessage,
  ) => Promise<{ status: number; body?: unknown; html?: string; location?: string }>;

  const api: [string, RegExp, Handler][] = [
    [
      'GET',
      /^\/v1\/catalogs\/products\/([^/]+)$/,
      async ([id = '']) => {
        const product = books.products.get(decodeURIComponent(id));
        if (!product) throw notFound();
        return { status: 200, body: product };
      },
    ],
    [
      'POST',
      /^\/v1\/catalogs\/products$/,
      async (_match, body) => {
        if (typeof body.name !== 'string') throw invalid('/name', 'MISSING_REQUIRED_PARAMETER');
        const id = typeof body.id === 'string' ? body.id : paypalId('PROD-', 17);
        if (books.products.has(id)) {
          throw unprocessable('DUPLICATE_RESOURCE_IDENTIFIER', 'The product id is in use.');
        }
        const at = books.now().toISOString();
        const product = { ...body, id, create_time: at, update_time: at };
        books.products.set(id, product);
        return { status: 201, body: product };
      },
    ],
    [
      'POST',
      /^\/v1\/billing\/plans$/,
      async (_match, body) => {
        const productId = String(body.product_id ?? '');
        if (!books.products.has(productId)) {
          throw unprocessable('INVALID_PRODUCT_ID', 'The product does not exist.');
        }
        const cycles = body.billing_cycles as Plan['billing_cycles'] | undefined;
        if (!Array.isArray(cycles) || cycles.length === 0) {
          throw invalid('/billing_cycles', 'MISSING_REQUIRED_PARAMETER');
        }
        const at = books.now().toISOString();
        const plan: Plan = {
          id: paypalId('P-', 24),
          product_id: productId,
          name: String(body.name ?? ''),
          status: String(body.status ?? 'ACTIVE'),
          billing_cycles: cycles.map((cycle) => ({
            ...cycle,
            pricing_scheme: { ...cycle.pricing_scheme, version: 1 },
          })),
          payment_preferences: { service_type: 'PREPAID', ...(body.payment_preferences as object) },
          create_time: at,
          update_time: at,
        };
        books.plans.set(plan.id, plan);
        return { status: 201, body: planJson(plan) };
      },
    ],
    [
      'GET',
      /^\/v1\/billing\/plans\/([^/]+)$/,
      async ([id = '']) => {
        const plan = books.plans.get(id);
        if (!plan) throw notFound();
        return { status: 200, body: planJson(plan) };
      },
    ],
    [
      'POST',
      /^\/v1\/billing\/subscriptions$/,
      async (_match, body) => {
        const plan = books.plans.get(String(body.plan_id ?? ''));
        if (!plan) throw unprocessable('INVALID_RESOURCE_ID', 'The plan does not exist.');
        if (plan.status !== 'ACTIVE')
          throw unprocessable('PLAN_STATUS_INVALID', 'Plan is not active.');
        const context = (body.application_context ?? {}) as Record<string, string>;
        if (!context.return_url || !context.cancel_url) {
          throw invalid('/application_context/return_url', 'MISSING_REQUIRED_PARAMETER');
        }
        const override = (body.plan as { billing_cycles?: Plan['billing_cycles'] } | undefined)
          ?.billing_cycles?.[0]?.pricing_scheme?.fixed_price;
        const price = override ?? plan.billing_cycles[0]?.pricing_scheme.fixed_price;
        if (!price) throw unprocessable('INVALID_PLAN', 'The plan has no price.');
        const at = books.now().toISOString();
        const subscription: Subscription = {
          id: paypalId('I-', 12),
          plan_id: plan.id,
          ...(typeof body.custom_id === 'string' ? { custom_id: body.custom_id } : {}),
          status: 'APPROVAL_PENDING',
          status_update_time: at,
          start_time: at,
          quantity: '1',
          plan_overridden: Boolean(override),
          create_time: at,
          update_time: at,
          internal: {
            baToken: paypalId('BA-', 17),
            returnUrl: context.return_url,
            cancelUrl: context.cancel_url,
            price,
          },
        };
        books.subscriptions.set(subscription.id, subscription);
        return { status: 201, body: subscriptionJson(subscription, origin) };
      },
    ],
    [
      'GET',
      /^\/v1\/billing\/subscriptions\/([^/]+)$/,
      async ([id = '']) => ({ status: 200, body: subscriptionJson(subscriptionOf(id), origin) }),
    ],
    [
      'POST',
      /^\/v1\/billing\/subscriptions\/([^/]+)\/suspend$/,
      async ([id = ''], body) => {
        const subscription = subscriptionOf(id);
        requireState(subscription, ['ACTIVE'], 'suspend');
        await send(books.suspend(subscription, String(body.reason ?? '')));
        return { status: 204 };
      },
    ],
    [
      'POST',
      /^\/v1\/billing\/subscriptions\/([^/]+)\/activate$/,
      async ([id = ''], body) => {
        const subscription = subscriptionOf(id);
        requireState(subscription, ['SUSPENDED'], 'activate');
        await send(books.activate(subscription, String(body.reason ?? '')));
        return { status: 204 };
      },
    ],
    [
      'POST',
      /^\/v1\/billing\/subscriptions\/([^/]+)\/cancel$/,
      async ([id = ''], body) => {
        const subscription = subscriptionOf(id);
        requireState(subscription, ['APPROVED', 'ACTIVE', 'SUSPENDED'], 'cancel');
        await send(books.cancel(subscription, String(body.reason ?? '')));
        return { status: 204 };
      },
    ],
    [
      'POST',
      /^\/v1\/billing\/subscriptions\/([^/]+)\/capture$/,
      async ([id = '']) => {
        const subscription = subscriptionOf(id);
        const owed = subscription.billing_info?.outstanding_balance;
        if (!owed || cents(owed) === 0) {
          throw unprocessable(
            'ZERO_OUTSTANDING_BALANCE',
            'Current outstanding balance should be greater than zero.',
          );
        }
        const { capture, events } = books.captureOutstanding(subscription);
        await send(events);
        return {
          status: 202,
          body: {
            status: 'COMPLETED',
            id: capture.id,
            amount_with_breakdown: { gross_amount: capture.amount },
            time: capture.create_time,
          },
        };
      },
    ],
    [
      'GET',
      /^\/v1\/billing\/subscriptions\/([^/]+)\/transactions$/,
      async ([id = ''], _body, request) => {
        const subscription = subscriptionOf(id);
        const query = new URL(request.url ?? '/', 'http://x').searchParams;
        const from = Date.parse(query.get('start_time') ?? '');
        const to = Date.parse(query.get('end_time') ?? '');
        if (Number.isNaN(from)) throw invalid('start_time', 'MISSING_REQUIRED_PARAMETER');
        if (Number.isNaN(to)) throw invalid('end_time', 'MISSING_REQUIRED_PARAMETER');
        const transactions = [...books.captures.values()]
          .filter((capture) => capture.subscription_id === subscription.id)
          .filter((capture) => {
            const at = Date.parse(capture.create_time);
            return at >= from && at <= to;
          })
          .map((capture) => ({
            status: capture.status,
            id: capture.id,
            amount_with_breakdown: {
              gross_amount: capture.amount,
              fee_amount: money(0, capture.amount.currency_code),
              net_amount: capture.amount,
            },
            payer_name: { given_name: 'Test', surname: 'Buyer' },
            payer_email: subscription.subscriber?.email_address ?? '',
            time: capture.create_time,
          }));
        return { status: 200, body: { transactions, links: [] } };
      },
    ],
    [
      'GET',
      /^\/v2\/payments\/captures\/([^/]+)$/,
      async ([id = '']) => {
        const capture = books.captures.get(id);
        if (!capture) throw notFound();
        return { status: 200, body: captureJson(capture) };
      },
    ],
    [
      'POST',
      /^\/v2\/payments\/captures\/([^/]+)\/refund$/,
      async ([id = ''], body) => {
        const capture = books.captures.get(id);
        if (!capture) throw notFound();
        if (capture.status === 'REFUNDED') {
          throw unprocessable(
            'CAPTURE_FULLY_REFUNDED',
            'The capture has already been fully refunded',
          );
        }
        const asked = body.amount as { value?: string; currency_code?: string } | undefined;
        if (asked && asked.currency_code !== capture.amount.currency_code) {
          throw unprocessable(
            'REFUND_CURRENCY_MISMATCH',
            'Refund must be in the currency of the capture.',
          );
        }
        const amount = asked ? Math.round(Number(asked.value) * 100) : remaining(capture);
        if (!(amount > 0)) throw invalid('/amount/value', 'INVALID_PARAMETER_VALUE');
        if (amount > remaining(capture)) {
          throw unprocessable(
            'REFUND_AMOUNT_EXCEEDED',
            'The refund amount must be less than or equal to the capture amount that has not yet been refunded.',
          );
        }
        const note = typeof body.note_to_payer === 'string' ? body.note_to_payer : undefined;
        const { refund, events } = books.refund(capture, amount, note);
        await send(events);
        return { status: 201, body: refundJson(refund) };
      },
    ],
    [
      'GET',
      /^\/v2\/payments\/refunds\/([^/]+)$/,
      async ([id = '']) => {
        const refund = books.refunds.get(id);
        if (!refund) throw notFound();
        return { status: 200, body: refundJson(refund) };
      },
    ],
  ];

  async function decide(form: Record<string, unknown>) {
    const subscription = [...books.subscriptions.values()].find(
      (each) => each.internal.baToken === form.ba_token,
    );
    if (!subscription) throw notFound();
    requireState(subscription, ['APPROVAL_PENDING'], 'approve');
    if (form.decision !== 'approve') {
      return { status: 302, location: subscription.internal.cancelUrl };
    }
    await send(books.approve(subscription));
    const back = new URL(subscription.internal.returnUrl);
    back.searchParams.set('subscription_id', subscription.id);
    back.searchParams.set('ba_token', subscription.internal.baToken);
    back.searchParams.set('token', paypalId('EC-', 17));
    return { status: 302, location: back.toString() };
  }

  async function route(request: IncomingMessage, raw: string) {
    const url = new URL(request.url ?? '/', 'http://standin');
    const method = request.method ?? 'GET';
    if (method === 'GET' && url.pathname === '/healthz') return { status: 200, body: { ok: true } };
    if (method === 'GET' && url.pathname === CERT_PATH) {
      return { status: 200, text: certificate.pem };
    }
    if (method === 'GET' && url.pathname === '/webapps/billing/subscriptions') {
      const subscription = [...books.subscriptions.values()].find(
        (each) => each.internal.baToken === url.searchParams.get('ba_token'),
      );
      if (!subscription) throw notFound();
      const plan = books.plans.get(subscription.plan_id);
      return { status: 200, html: approvalPage(subscription, plan?.name ?? 'Subscription') };
    }
    if (method === 'POST' && url.pathname === '/webapps/billing/subscriptions/decide') {
      return decide(Object.fromEntries(new URLSearchParams(raw)));
    }
    if (method === 'POST' && url.pathname === '/standin/renew') {
      const body = JSON.parse(raw || '{}') as { subscription_id?: string; outcome?: string };
      await renew(String(body.subscription_id), body.outcome === 'failed' ? 'failed' : 'paid');
      return { status: 204 };
    }
    if (method === 'POST' && url.pathname === '/v1/oauth2/token') return token(request, raw);
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!bearer || !tokens.has(bearer)) {
      throw new PayPalError(401, {
        name: 'AUTHENTICATION_FAILURE',
        message:
          'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
        debug_id: debugId(),
      });
    }
    for (const [verb, pattern, handler] of api) {
      const match = verb === method ? pattern.exec(url.pathname) : null;
      if (!match) continue;
      const requestId = request.headers['paypal-request-id'];
      const key = typeof requestId === 'string' ? `${method} ${url.pathname} ${requestId}` : null;
      const seen = key ? books.answered.get(key) : undefined;
      if (seen) return seen;
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      const answer = await handler(match.slice(1), body, request);
      if (key && answer.status < 300)
        books.answered.set(key, { status: answer.status, body: answer.body });
      return answer;
    }
    throw notFound();
  }

  function token(request: IncomingMessage, raw: string) {
    const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const [id, secret] = Buffer.from(basic ?? '', 'base64')
      .toString('utf8')
      .split(':');
    if (id !== options.clientId || secret !== options.clientSecret) {
      throw new PayPalError(401, {
        error: 'invalid_client',
        error_description: 'Client Authentication failed',
      });
    }
    if (new URLSearchParams(raw).get('grant_type') !== 'client_credentials') {
      throw new PayPalError(400, {
        error: 'unsupported_grant_type',
        error_description: 'Grant Type is NULL',
      });
    }
    const accessToken = `A21AA${paypalId('', 40)}`;
    tokens.add(accessToken);
    return {
      status: 200,
      body: {
        scope: 'https://uri.paypal.com/services/subscriptions',
        access_token: accessToken,
        token_type: 'Bearer',
        app_id: 'APP-80W284485P519543T',
        expires_in: 32400,
        nonce: `${new Date().toISOString()}${paypalId('', 8)}`,
      },
    };
  }

  async function renew(id: string, outcome: 'paid' | 'failed') {
    const subscription = books.subscriptions.get(id);
    if (!subscription) throw notFound();
    await send(books.renew(subscription, outcome));
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      route(request, Buffer.concat(chunks).toString('utf8'))
        .then(
          (answer: {
            status: number;
            body?: unknown;
            html?: string;
            text?: string;
            location?: string;
          }) => {
            if (answer.location) response.setHeader('location', answer.location);
            if (answer.html !== undefined) {
              response.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8' });
              response.end(answer.html);
            } else if (answer.text !== undefined) {
              response.writeHead(answer.status, { 'content-type': 'application/x-pem-file' });
              response.end(answer.text);
            } else if (answer.body !== undefined) {
              response.writeHead(answer.status, {
                'content-type': 'application/json',
                'paypal-debug-id': debugId(),
              });
              response.end(JSON.stringify(answer.body));
            } else {
              response.writeHead(answer.status);
              response.end();
            }
          },
        )
        .catch((error: unknown) => {
          const known = error instanceof PayPalError;
          response.writeHead(known ? error.status : 500, { 'content-type': 'application/json' });
          response.end(
            JSON.stringify(
              known
                ? error.body
                : { name: 'INTERNAL_SERVER_ERROR', message: String(error), debug_id: debugId() },
            ),
          );
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  certUrl = `${origin}${CERT_PATH}`;

  return {
    origin,
    certUrl,
    certificate,
    books,
    deliveries,
    async approve(subscriptionId) {
      await decide({
        ba_token: subscriptionOf(subscriptionId).internal.baToken,
        decision: 'approve',
      });
    },
    renew,
    send,
    sign,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
