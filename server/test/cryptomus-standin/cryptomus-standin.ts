import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { paymentPage } from './payment-page.ts';
import {
  FINAL_STATUSES,
  invoiceView,
  makeInvoice,
  markPaid,
  moscowTime,
  type StandInInvoice,
  webhookPayload,
} from './standin-invoices.ts';
import { md5Sign, signedWebhookBody } from './standin-signature.ts';

// A local Cryptomus at the network boundary: its payment API (/v1/payment, /info, /list,
// /refund, /resend) checking the `merchant` and `sign` headers as Cryptomus does, its
// hosted payment page, and webhooks signed in the body, posted to each invoice's
// url_callback on every status change. Tests only; production never imports it.

export interface CryptomusStandInOptions {
  merchantId: string;
  paymentKey: string;
  /** 0 (any free port) unless given. */
  port?: number;
  /** Posts a webhook; answers the HTTP status. By default a real POST to `url`. */
  deliver?: (url: string, body: string) => Promise<number>;
  /** Invoices per page of /v1/payment/list. */
  perPage?: number;
}

export interface Delivery {
  url: string;
  body: string;
  status: number;
}

export interface CryptomusStandIn {
  url: string;
  merchantId: string;
  paymentKey: string;
  find(by: { uuid?: string; order_id?: string }): StandInInvoice | undefined;
  /** Moves an invoice to `status` and posts its webhook (unless `notify` is false). */
  setStatus(
    uuid: string,
    status: string,
    options?: { isFinal?: boolean; notify?: boolean },
  ): Promise<void>;
  /** Posts the invoice's current webhook again, as /v1/payment/resend does. */
  resend(uuid: string): Promise<Delivery>;
  /** The next `count` /v1/payment/info calls answer 500. */
  failInfoCalls(count: number): void;
  /** How many /v1/payment/info calls were answered. */
  readonly infoCalls: number;
  readonly deliveries: readonly Delivery[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

const ORDER_ID = /^[A-Za-z0-9_-]{1,128}$/;
const AMOUNT = /^\d+(\.\d+)?$/;

type Fields = Record<string, unknown>;

/** The create request's checks, as Cryptomus's 422 `errors` (only those we can get wrong). */
function invalidFields(body: Fields): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (typeof body.amount !== 'string' || !AMOUNT.test(body.amount))
    errors.amount = ['validation.required'];
  if (typeof body.currency !== 'string' || body.currency === '')
    errors.currency = ['validation.required'];
  if (typeof body.order_id !== 'string' || !ORDER_ID.test(body.order_id))
    errors.order_id = ['validation.alpha_dash'];
  if (body.additional_data != null && String(body.additional_data).length > 255)
    errors.additional_data = ['validation.max.string'];
  for (const field of ['url_return', 'url_success', 'url_callback']) {
    const value = body[field];
    if (value != null && (typeof value !== 'string' || !URL.canParse(value) || value.length < 6))
      errors[field] = ['validation.url'];
  }
  const lifetime = body.lifetime ?? 3600;
  if (typeof lifetime !== 'number' || lifetime < 300 || lifetime > 43_200)
    errors.lifetime = ['validation.between.numeric'];
  return errors;
}

export async function startCryptomusStandIn(
  options: CryptomusStandInOptions,
): Promise<CryptomusStandIn> {
  const invoices: StandInInvoice[] = [];
  const deliveries: Delivery[] = [];
  const perPage = options.perPage ?? 15;
  let failInfo = 0;
  let infoCalls = 0;
  let base = '';

  const deliver =
    options.deliver ??
    (async (url: string, body: string) => {
      try {
        const answer = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        return answer.status;
      } catch {
        return 0;
      }
    });

  const find = (by: { uuid?: unknown; order_id?: unknown }) =>
    typeof by.uuid === 'string'
      ? invoices.find((invoice) => invoice.uuid === by.uuid)
      : typeof by.order_id === 'string'
        ? invoices.find((invoice) => invoice.order_id === by.order_id)
        : undefined;

  async function post(invoice: StandInInvoice): Promise<Delivery> {
    const body = signedWebhookBody(webhookPayload(invoice), options.paymentKey);
    const url = invoice.url_callback ?? '';
    const status = url ? await deliver(url, body) : 0;
    const delivery = { url, body, status };
    deliveries.push(delivery);
    return delivery;
  }

  async function setStatus(
    uuid: string,
    status: string,
    change: { isFinal?: boolean; notify?: boolean } = {},
  ) {
    const invoice = find({ uuid });
    if (!invoice) throw new Error(`no stand-in invoice ${uuid}`);
    if (status !== 'check' && status !== 'cancel') markPaid(invoice);
    invoice.status = status;
    invoice.payment_status = status;
    invoice.is_final = change.isFinal ?? FINAL_STATUSES.has(status);
    invoice.updated_at = moscowTime(new Date());
    if (change.notify !== false) await post(invoice);
  }

  function authorized(request: IncomingMessage, raw: string): boolean {
    return (
      request.headers.merchant === options.merchantId &&
      request.headers.sign === md5Sign(raw, options.paymentKey)
    );
  }

  async function api(path: string, request: IncomingMessage, response: ServerResponse) {
    const raw = await readBody(request);
    if (!authorized(request, raw)) {
      json(response, 401, { state: 1, message: 'Invalid Sign' });
      return;
    }
    let body: Fields;
    try {
      body = raw === '' ? {} : (JSON.parse(raw) as Fields);
    } catch {
      json(response, 422, { state: 1, message: 'Invalid JSON' });
      return;
    }
    const notFound = () => json(response, 422, { state: 1, message: 'Payment was not found' });
    switch (path) {
      case '/v1/payment': {
        const errors = invalidFields(body);
        if (Object.keys(errors).length > 0) {
          json(response, 422, { state: 1, errors });
          return;
        }
        // An order_id it already has answers that invoice: none is made twice.
        let invoice = find({ order_id: body.order_id });
        if (!invoice) {
          invoice = makeInvoice(
            {
              amount: body.amount as string,
              currency: body.currency as string,
              order_id: body.order_id as string,
              lifetime: (body.lifetime as number | undefined) ?? 3600,
              additional_data: (body.additional_data as string | undefined) ?? null,
              url_return: (body.url_return as string | undefined) ?? null,
              url_success: (body.url_success as string | undefined) ?? null,
              url_callback: (body.url_callback as string | undefined) ?? null,
            },
            base,
            new Date(),
          );
          invoices.push(invoice);
        }
        json(response, 200, { state: 0, result: invoiceView(invoice) });
        return;
      }
      case '/v1/payment/info': {
        if (failInfo > 0) {
          failInfo -= 1;
          json(response, 500, { state: 1, message: 'Server Error' });
          return;
        }
        infoCalls += 1;
        const invoice = find(body);
        if (!invoice) return notFound();
        json(response, 200, { state: 0, result: invoiceView(invoice) });
        return;
      }
      case '/v1/payment/list': {
        const cursor = new URL(request.url ?? '/', 'http://x').searchParams.get('cursor');
        const offset = cursor ? Number(Buffer.from(cursor, 'base64url').toString('utf8')) : 0;
        const from =
          typeof body.date_from === 'string'
            ? new Date(`${body.date_from.replace(' ', 'T')}+03:00`).getTime()
            : Number.NEGATIVE_INFINITY;
        const matching = invoices
          .filter((invoice) => new Date(invoice.created_at).getTime() >= from)
          .reverse();
        const page = matching.slice(offset, offset + perPage);
        const next = offset + perPage < matching.length;
        json(response, 200, {
          state: 0,
          result: {
            items: page.map(invoiceView),
            paginate: {
              count: page.length,
              hasPages: matching.length > perPage,
              nextCursor: next
                ? Buffer.from(String(offset + perPage), 'utf8').toString('base64url')
                : null,
              previousCursor: null,
              perPage,
            },
          },
        });
        return;
      }
      case '/v1/payment/refund': {
        if (typeof body.address !== 'string' || body.is_subtract === undefined) {
          json(response, 422, {
            state: 1,
            errors: { address: ['validation.required'], is_subtract: ['validation.required'] },
          });
          return;
        }
        const invoice = find(body);
        if (!invoice) return notFound();
        if (invoice.status !== 'paid' && invoice.status !== 'paid_over') {
          json(response, 422, { state: 1, message: 'The invoice is not paid' });
          return;
        }
        json(response, 200, { state: 0, result: [] });
        await setStatus(invoice.uuid, 'refund_process');
        await setStatus(invoice.uuid, 'refund_paid');
        return;
      }
      case '/v1/payment/resend': {
        const invoice = find(body);
        if (!invoice) return notFound();
        await post(invoice);
        json(response, 200, { state: 0, result: [] });
        return;
      }
      default:
        json(response, 404, { state: 1, message: 'Not found' });
    }
  }

  async function page(uuid: string, request: IncomingMessage, response: ServerResponse) {
    const invoice = find({ uuid });
    if (!invoice) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('No such invoice');
      return;
    }
    if (request.method === 'POST' && !invoice.is_final) {
      const action = new URLSearchParams(await readBody(request)).get('action');
      // Each move is told by webhook before the customer is sent on, as a prompt Cryptomus
      // would: the shop may already know when the customer arrives.
      if (action === 'pay' || action === 'confirm') await setStatus(uuid, 'paid');
      else if (action === 'pay_unconfirmed') await setStatus(uuid, 'confirm_check');
      else if (action === 'cancel') await setStatus(uuid, 'cancel');
      const next =
        action === 'cancel'
          ? invoice.url_return
          : invoice.status === 'paid'
            ? (invoice.url_success ?? invoice.url_return)
            : null;
      response.writeHead(303, { location: next ?? `/pay/${uuid}` }).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(paymentPage(invoice));
  }

  /** Test controls (not Cryptomus's): move an invoice, as the chain or its staff would. */
  async function control(uuid: string, request: IncomingMessage, response: ServerResponse) {
    const body = JSON.parse((await readBody(request)) || '{}') as Fields;
    if (!find({ uuid }) || typeof body.status !== 'string') {
      json(response, 404, { error: 'no such invoice or no status' });
      return;
    }
    await setStatus(uuid, body.status, {
      ...(typeof body.is_final === 'boolean' ? { isFinal: body.is_final } : {}),
    });
    json(response, 200, invoiceView(find({ uuid }) as StandInInvoice));
  }

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const pay = /^\/pay\/([\w-]+)$/.exec(path);
    const moved = /^\/test\/invoices\/([\w-]+)\/status$/.exec(path);
    const handled =
      path === '/healthz'
        ? Promise.resolve(void response.writeHead(200).end('ok'))
        : pay?.[1]
          ? page(pay[1], request, response)
          : moved?.[1] && request.method === 'POST'
            ? control(moved[1], request, response)
            : request.method === 'POST' && path.startsWith('/v1/')
              ? api(path, request, response)
              : Promise.resolve(void json(response, 404, { state: 1, message: 'Not found' }));
    handled.catch((error: unknown) => {
      if (!response.headersSent) json(response, 500, { state: 1, message: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    merchantId: options.merchantId,
    paymentKey: options.paymentKey,
    find,
    setStatus,
    async resend(uuid) {
      const invoice = find({ uuid });
      if (!invoice) throw new Error(`no stand-in invoice ${uuid}`);
      return post(invoice);
    },
    failInfoCalls(count) {
      failInfo = count;
    },
    get infoCalls() {
      return infoCalls;
    },
    deliveries,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
