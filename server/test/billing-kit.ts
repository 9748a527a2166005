import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { type ProductRow, payments } from '../db/schema/index.ts';
import type { App } from '../http/types.ts';
import { demoPlan, seedDemoCatalog } from '../modules/billing/demo-catalog.ts';
import { type EndpointAnswer, type EndpointCaller, endpointClient } from './api-client.ts';
import type { TestSession } from './test-sessions.ts';
import { until } from './wait-until.ts';

// Billing through its real parts in tests: the demo catalog, the sandbox gateway's own
// tokenizer (as the card form uses it) and our endpoints.

export const CARDS = {
  visa: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  needsConfirmation: '4000002760003184',
  chargesFail: '4000000000000341',
} as const;

/** A card token from the sandbox's tokenizer, as the order page gets one. */
export async function cardToken(app: App, number: string, expYear = 2031): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/sandbox/v1/tokens',
    remoteAddress: `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    payload: { number, exp_month: 12, exp_year: expYear, cvc: '123', name: 'Test Buyer' },
  });
  if (response.statusCode !== 200)
    throw new Error(`tokenize ${response.statusCode}: ${response.body}`);
  return (response.json() as { id: string }).id;
}

export interface Shop {
  call: EndpointCaller;
  /** The demo plan of that currency and name. */
  plan(name?: string, currency?: string): Promise<ProductRow>;
  /** Orders a plan with a new card. */
  buy(
    session: TestSession,
    options?: { card?: string; plan?: string; coupon?: string; key?: string; addon?: boolean },
  ): Promise<EndpointAnswer<typeof billingEndpoints.checkout>>;
}

export async function openShop(app: App): Promise<Shop> {
  await seedDemoCatalog(app.db);
  const call = endpointClient(app);
  const plan = (name = '1 month', currency = 'USD') => demoPlan(app.db, currency, name);
  return {
    call,
    plan,
    async buy(session, options = {}) {
      const product = await plan(options.plan);
      const token = await cardToken(app, options.card ?? CARDS.visa);
      return call(billingEndpoints.checkout, {
        cookie: session.cookie,
        body: {
          product_id: product.id,
          addon_ids:
            options.addon && product.additionalProductId ? [product.additionalProductId] : [],
          ...(options.coupon ? { coupon: options.coupon } : {}),
          payment: { service_id: 1, token },
          idempotency_key: options.key ?? randomUUID(),
          lang: 'en',
        },
      });
    },
  };
}

/**
 * Waits for an order's payment, which reaches us by the sandbox's webhook a moment after the
 * order's answer (a refund gives back a payment, so tests of refunds need it first).
 */
export async function paymentArrived(app: App, invoiceId: number): Promise<void> {
  await app.queue.drain({ timeoutMs: 20_000 });
  await until(
    async () =>
      (await app.db.select().from(payments).where(eq(payments.invoiceId, invoiceId))).length > 0,
    'the payment of the order',
    20_000,
  );
}
