import type { StripeSettings } from '#shared/billing/gateway-settings.ts';
import type { GatewayDeps, PaymentGateway } from '../gateway.ts';
import { stripeCardVault } from './stripe-cards.ts';
import { ensureCustomer, ensurePrice } from './stripe-catalog.ts';
import { startCardSetup, startSubscription } from './stripe-checkout.ts';
import { stripeClient } from './stripe-client.ts';
import { payInvoice, refund } from './stripe-invoices.ts';
import { readInvoice, readSubscription } from './stripe-reads.ts';
import {
  cancel,
  changePlan,
  endForNonPayment,
  listSubscriptions,
  pause,
  previewChange,
  resume,
  unpause,
} from './stripe-subscriptions.ts';
import { verifyStripeWebhook } from './stripe-webhooks.ts';

export interface StripeGateway extends PaymentGateway {
  /**
   * A new card without Stripe.js: Stripe's hosted page in setup mode. Answers its URL;
   * the card reaches our books by webhook when the customer has saved it.
   */
  startCardSetup(input: {
    customerRef: string;
    returnUrl: string;
    cancelUrl: string;
    idempotencyKey: string;
  }): Promise<string>;
}

/**
 * Stripe (service 1) through its official SDK: customers, hosted Checkout for the first
 * payment, subscriptions and their changes, invoices, saved cards and refunds; webhooks
 * checked by Stripe's signature and read back from its API. Makes no call until used.
 */
export function createStripeGateway(settings: StripeSettings, deps: GatewayDeps): StripeGateway {
  const stripe = stripeClient(settings);
  const log = deps.log.child({ component: 'stripe-gateway' });
  return {
    name: 'stripe',
    serviceId: 1,
    paymentMethodType: 'card',
    checkoutStyle: {
      checkout: 'redirect',
      tokenizeUrl: null,
      googlePay: settings.googlePay,
      applePay: settings.applePay,
      cryptoProcessing: false,
    },
    cards: stripeCardVault(stripe),
    ensureCustomer: (customer) => ensureCustomer(stripe, customer),
    ensurePrice: (price) => ensurePrice(stripe, price),
    startSubscription: (input) => startSubscription(stripe, input),
    previewChange: (input) => previewChange(stripe, input),
    changePlan: (input) => changePlan(stripe, input),
    cancel: (ref, options) => cancel(stripe, ref, options),
    resume: (ref) => resume(stripe, ref),
    pause: (ref) => pause(stripe, ref),
    unpause: (ref) => unpause(stripe, ref),
    payInvoice: (ref, options) => payInvoice(stripe, ref, options),
    endForNonPayment: (ref) => endForNonPayment(stripe, ref),
    refund: (ref, options) => refund(stripe, ref, options),
    fetchSubscription: (ref) => readSubscription(stripe, ref),
    fetchInvoice: async (ref) => (await readInvoice(stripe, ref))?.invoice ?? null,
    verifyWebhook: async (rawBody, headers) => {
      const events = await verifyStripeWebhook(stripe, settings.webhookSecret, rawBody, headers);
      for (const event of events) log.debug({ event: event.ref, type: event.type }, 'stripe event');
      return events;
    },
    listSubscriptions: (since) => listSubscriptions(stripe, since),
    startCardSetup: (input) => startCardSetup(stripe, input),
  };
}
