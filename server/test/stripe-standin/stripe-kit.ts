import Fastify from 'fastify';
import Stripe from 'stripe';
import type { GatewayPrice } from '../../platform/payments/gateway.ts';
import {
  createStripeGateway,
  type StripeGateway,
} from '../../platform/payments/stripe/stripe-gateway.ts';
import type { Deliver } from './standin-webhooks.ts';
import { type StripeStandin, startStripeStandin } from './stripe-standin.ts';

// Our Stripe gateway pointed at a fresh stand-in, and the official SDK too (as a test's
// own view of "Stripe"): what Stripe.js would make (a PaymentMethod from a test card
// number) is made through it.

export const STRIPE_SECRET_KEY = 'sk_test_standin_0123456789';
export const STRIPE_WEBHOOK_SECRET = 'whsec_standin_0123456789abcdef';

export interface StripeKit {
  standin: StripeStandin;
  gateway: StripeGateway;
  /** The SDK pointed at the stand-in, as the test's hands. */
  stripe: Stripe;
  /** A PaymentMethod for a test card number, as Stripe.js makes one. */
  cardToken(number: string): Promise<string>;
  close(): Promise<void>;
}

export function sdkFor(url: string, key = STRIPE_SECRET_KEY): Stripe {
  const { hostname, port } = new URL(url);
  return new Stripe(key, { host: hostname, port, protocol: 'http', maxNetworkRetries: 0 });
}

export async function openStripe(
  options: { deliver?: Deliver; appUrl?: string; now?: () => Date } = {},
): Promise<StripeKit> {
  const standin = await startStripeStandin({
    secretKey: STRIPE_SECRET_KEY,
    webhookSecret: STRIPE_WEBHOOK_SECRET,
    ...(options.deliver ? { deliver: options.deliver } : {}),
  });
  const gateway = createStripeGateway(
    {
      secretKey: STRIPE_SECRET_KEY,
      webhookSecret: STRIPE_WEBHOOK_SECRET,
      apiUrl: standin.url,
      googlePay: true,
      applePay: false,
    },
    {
      log: Fastify({ logger: false }).log,
      appUrl: options.appUrl ?? 'http://127.0.0.1:1',
      ...(options.now ? { now: options.now } : {}),
    },
  );
  const stripe = sdkFor(standin.url);
  return {
    standin,
    gateway,
    stripe,
    async cardToken(number) {
      const method = await stripe.paymentMethods.create({
        type: 'card',
        card: { number, exp_month: 12, exp_year: 2034, cvc: '123' },
      });
      return method.id;
    },
    close: () => standin.close(),
  };
}

export const MONTHLY: GatewayPrice = {
  productId: 41,
  ref: null,
  name: 'VPN monthly',
  amount: 1299,
  currency: 'USD',
  interval: 'month',
  intervalCount: 1,
  onetime: false,
};

export const YEARLY: GatewayPrice = {
  ...MONTHLY,
  productId: 42,
  name: 'VPN yearly',
  amount: 7188,
  interval: 'year',
};

/** A product sold once, for one month of access (Checkout in payment mode). */
export const ONE_MONTH_ONCE: GatewayPrice = {
  ...MONTHLY,
  productId: 43,
  name: 'VPN 1 month, once',
  amount: 1499,
  onetime: true,
};

/** The session id in a Checkout URL (…/c/pay/cs_…). */
export function sessionIdOf(url: string): string {
  const id = /\/c\/pay\/(cs_[^/?#]+)/.exec(url)?.[1];
  if (!id) throw new Error(`not a Checkout URL: ${url}`);
  return id;
}
