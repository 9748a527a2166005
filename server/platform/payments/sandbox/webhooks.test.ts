import type { IncomingHttpHeaders } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../http/types.ts';
import { createTestApp } from '../../../test/test-app.ts';
import { until } from '../../../test/wait-until.ts';
import type { BillingClock } from '../billing-clock.ts';
import {
  type GatewayEvent,
  type GatewayPrice,
  type PaymentGateway,
  WebhookRejected,
} from '../gateway.ts';
import { PaymentGateways } from '../payments-plugin.ts';
import { createSandboxGateway, signSandboxWebhook, WEBHOOK_URL } from './sandbox-gateway.ts';
import type { SandboxEventPayload } from './webhook-events.ts';

// Webhooks as our route receives them: a stand-in for it records each delivery with its raw
// body and headers, and can answer 500 to see the queue try again.

const SECRET = 'whsec_test_0123456789abcdef';
const DAY_MS = 86_400_000;
const PLAN: GatewayPrice = {
  productId: 41,
  ref: null,
  name: 'VPN monthly',
  amount: 999,
  currency: 'USD',
  interval: 'month',
  intervalCount: 1,
  onetime: false,
};

interface Delivery {
  raw: Buffer;
  headers: IncomingHttpHeaders;
  payload: SandboxEventPayload;
  status: number;
}

let app: App;
let gateway: PaymentGateway;
let clock: BillingClock;
const deliveries: Delivery[] = [];
/** Deliveries it matches are answered 500. */
let failing: (payload: SandboxEventPayload, attempt: number) => boolean = () => false;
let user = 0;

beforeAll(async () => {
  ({ app } = await createTestApp({ BILLING_SANDBOX: 'false' }, async (scope) => {
    if (!scope.hasDecorator('payments')) scope.decorate('payments', new PaymentGateways());
    clock = scope.payments.clock;
    gateway = await createSandboxGateway(scope, {
      webhookSecret: SECRET,
      webhookRetryDelaySeconds: 1,
    });
    await scope.register(async (hook) => {
      hook.removeAllContentTypeParsers();
      hook.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) =>
        done(null, body),
      );
      hook.post(
        WEBHOOK_URL,
        { config: { access: 'own-signature', crossSitePost: true } },
        async (request, reply) => {
          const raw = request.body as Buffer;
          const payload = JSON.parse(raw.toString('utf8')) as SandboxEventPayload;
          const attempt = deliveries.filter((seen) => seen.payload.id === payload.id).length;
          const status = failing(payload, attempt) ? 500 : 200;
          deliveries.push({ raw, headers: request.headers, payload, status });
          return reply.code(status).send({ received: status === 200 });
        },
      );
    });
  }));
});

async function purchase(number: string) {
  user += 1;
  const customerRef = await gateway.ensureCustomer({
    userId: user,
    email: `w${user}@example.com`,
    name: 'W',
  });
  const token = await app.inject({
    method: 'POST',
    url: '/sandbox/v1/tokens',
    remoteAddress: `10.5.0.${user}`,
    payload: { number, exp_month: 12, exp_year: 2045, cvc: '123', name: 'W' },
  });
  const outcome = await gateway.startSubscription({
    customerRef,
    items: [PLAN],
    discount: null,
    paymentToken: token.json<{ id: string }>().id,
    paymentMethodRef: null,
    returnUrl: '/en/billing',
    cancelUrl: '/en/billing',
    idempotencyKey: `hook-${user}`,
    metadata: { userId: String(user) },
  });
  return { customerRef, outcome };
}

/** The events delivered (2xx) about one customer's objects, each once, as our route reads them. */
async function eventsOf(customerRef: string): Promise<GatewayEvent[]> {
  const seen = new Set<string>();
  const verified = await Promise.all(
    deliveries
      .filter((delivery) => delivery.status === 200)
      .map((delivery) => gateway.verifyWebhook(delivery.raw, delivery.headers)),
  );
  return verified.flat().filter((event) => {
    const customer =
      event.subscription?.customerRef ?? event.invoice?.customerRef ?? event.card?.customerRef;
    if (customer !== customerRef || seen.has(event.ref)) return false;
    seen.add(event.ref);
    return true;
  });
}

describe('webhook delivery', () => {
  it('tells of a purchase in signed events carrying full snapshots', async () => {
    const { customerRef, outcome } = await purchase('4242424242424242');
    if (outcome.kind !== 'completed') throw new Error('expected a paid start');
    // Delivered by the queue's worker, which may still be starting in this fresh app.
    await until(
      async () => (await eventsOf(customerRef)).length >= 5,
      'the purchase webhooks',
      15_000,
    );
    await app.queue.drain();
    const events = await eventsOf(customerRef);
    expect(events.map((event) => event.type).sort()).toEqual([
      'customer.default_payment_method_changed',
      'customer.subscription.created',
      'invoice.paid',
      'payment_intent.succeeded',
      'payment_method.attached',
    ]);
    for (const delivery of deliveries) {
      expect(delivery.headers['sandbox-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(delivery.headers['content-type']).toBe('application/json');
    }
    const paid = events.find((event) => event.type === 'invoice.paid');
    expect(paid?.subscription).toMatchObject({
      ref: outcome.subscription.ref,
      status: 'active',
      items: [{ productId: PLAN.productId, amount: 999 }],
      metadata: { userId: String(user) },
    });
    expect(paid?.invoice).toMatchObject({ ref: outcome.invoice.ref, status: 'paid', total: 999 });
    expect(paid?.payment).toMatchObject({ status: 'succeeded', amount: 999 });
    expect(paid?.occurredAt).toBeInstanceOf(Date);
    const card = events.find((event) => event.type === 'customer.default_payment_method_changed');
    expect(card?.card).toMatchObject({ last4: '4242', isDefault: true, customerRef });
  });

  it('tells nothing of a declined purchase', async () => {
    const { customerRef, outcome } = await purchase('4000000000000341');
    expect(outcome.kind).toBe('declined');
    await app.queue.drain();
    expect(await eventsOf(customerRef)).toEqual([]);
  });

  it('tells of a renewal, each state of an object newer than the one before', async () => {
    const { customerRef, outcome } = await purchase('4242424242424242');
    if (outcome.kind !== 'completed') throw new Error('expected a paid start');
    await clock.advance(31 * DAY_MS);
    await app.queue.drain();
    const events = await eventsOf(customerRef);
    const renewal = events.filter((event) => event.invoice?.reason === 'subscription_cycle');
    expect(renewal.map((event) => event.type).sort()).toEqual([
      'invoice.created',
      'invoice.finalized',
      'invoice.paid',
      'payment_intent.succeeded',
    ]);
    expect(renewal.map((event) => event.invoice?.status).sort()).toEqual([
      'draft',
      'open',
      'paid',
      'paid',
    ]);
    // One updatedAt, one state: events applied in any order converge by updatedAt.
    const states = new Map<string, string>();
    for (const event of events) {
      for (const snapshot of [event.subscription, event.invoice, event.card]) {
        if (!snapshot) continue;
        const key = `${snapshot.ref}@${snapshot.updatedAt.toISOString()}`;
        const state = JSON.stringify(snapshot);
        expect(states.get(key) ?? state).toBe(state);
        states.set(key, state);
      }
    }
    const latest = events
      .flatMap((event) => (event.subscription ? [event.subscription] : []))
      .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())[0];
    expect(latest?.currentPeriodStart).toEqual(outcome.subscription.currentPeriodEnd);
  });

  it('tries again, with back-off, after our route answers 500', async () => {
    failing = (payload, attempt) =>
      payload.type === 'customer.subscription.created' && attempt === 0;
    const { customerRef } = await purchase('4242424242424242');
    await until(
      async () =>
        (await eventsOf(customerRef)).some(
          (event) => event.type === 'customer.subscription.created',
        ),
      'the retried delivery',
      15_000,
    );
    failing = () => false;
    const created = deliveries.filter(
      (delivery) =>
        delivery.payload.type === 'customer.subscription.created' &&
        delivery.payload.data.subscription?.customer === customerRef,
    );
    expect(created.map((delivery) => delivery.status)).toEqual([500, 200]);
    expect(created[0]?.payload.id).toBe(created[1]?.payload.id);
  });
});

describe('verifyWebhook', () => {
  const body = () => {
    const delivered = deliveries.find((delivery) => delivery.status === 200);
    if (!delivered) throw new Error('no delivery recorded yet');
    return delivered.raw;
  };
  const now = () => Math.floor(Date.now() / 1000);
  const headers = (signature: string) => ({ 'sandbox-signature': signature });

  it('accepts a good signature, by any header spelling', async () => {
    const raw = body();
    const [event] = await gateway.verifyWebhook(raw, headers(signSandboxWebhook(SECRET, raw)));
    expect(event?.ref).toMatch(/^evt_/);
    const signature = signSandboxWebhook(SECRET, raw, now() - 299);
    expect(await gateway.verifyWebhook(raw, { 'Sandbox-Signature': [signature] })).toHaveLength(1);
    // A rolled secret: one of several v1 may match.
    const rolled = `${signSandboxWebhook('whsec_old_secret_000000', raw)},v1=${signature.split('v1=')[1]}`;
    expect(
      await gateway.verifyWebhook(raw, headers(rolled.replace(/t=\d+/, `t=${now() - 299}`))),
    ).toHaveLength(1);
  });

  it.each([
    [
      'forged with another secret',
      (raw: Buffer) => [raw, signSandboxWebhook('whsec_forger_0000000000', raw)],
    ],
    [
      'tampered after signing',
      (raw: Buffer) => [
        Buffer.from(raw.toString().replace('999', '1')),
        signSandboxWebhook(SECRET, raw),
      ],
    ],
    ['stale', (raw: Buffer) => [raw, signSandboxWebhook(SECRET, raw, now() - 301)]],
    ['from the future', (raw: Buffer) => [raw, signSandboxWebhook(SECRET, raw, now() + 301)]],
    ['malformed', (raw: Buffer) => [raw, 't=soon,v1=abc']],
    ['unsigned', (raw: Buffer) => [raw, '']],
  ] as const)('refuses one %s', async (_case, make) => {
    const [raw, signature] = make(body()) as [Buffer, string];
    await expect(gateway.verifyWebhook(raw, signature ? headers(signature) : {})).rejects.toThrow(
      WebhookRejected,
    );
  });

  it('refuses a signed body that is not an event', async () => {
    const raw = Buffer.from('{"hello":"world"}');
    await expect(
      gateway.verifyWebhook(raw, headers(signSandboxWebhook(SECRET, raw))),
    ).rejects.toThrow(WebhookRejected);
  });
});
