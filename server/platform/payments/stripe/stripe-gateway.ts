import type { StripeSettings } from '#shared/billing/gateway-settings.ts';
import type { GatewayDeps, PaymentGateway } from '../gateway.ts';
import { stripeCardVault } from './stripe-cards.ts';
import { ensureCustomer, ensurePrice } from './stripe-catalog.ts';
import { startCardSetup, startSubscription } from './stripe-checkout.ts';
import { stripeClient } from './stripe-client.ts';
import { payInvoice, refund } from './stripe-invoices.ts';
import {
  cancelOneTime,
  isOneTimeRef,
  notForOneTime,
  readInvoiceSnapshots,
  readOneTime,
  resumeOneTime,
} from './stripe-onetime.ts';
import { readSubscription } from './stripe-reads.ts';
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
  const now = deps.now ?? (() => new Date());
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
    // A one-time purchase (Checkout in payment mode) is named by its PaymentIntent: there is
    // no Stripe subscription to act on (stripe-onetime.ts).
    previewChange: async (input) =>
      isOneTimeRef(input.subscriptionRef)
        ? notForOneTime(input.subscriptionRef, 'change plan')
        : previewChange(stripe, input),
    changePlan: async (input) =>
      isOneTimeRef(input.subscriptionRef)
        ? notForOneTime(input.subscriptionRef, 'change plan')
        : changePlan(stripe, input),
    cancel: (ref, options) =>
      isOneTimeRef(ref) ? cancelOneTime(stripe, ref, options, now()) : cancel(stripe, ref, options),
    resume: (ref) => (isOneTimeRef(ref) ? resumeOneTime(stripe, ref, now()) : resume(stripe, ref)),
    pause: async (ref) => (isOneTimeRef(ref) ? notForOneTime(ref, 'pause') : pause(stripe, ref)),
    unpause: async (ref) =>
      isOneTimeRef(ref) ? notForOneTime(ref, 'pause') : unpause(stripe, ref),
    payInvoice: (ref, options) => payInvoice(stripe, ref, options),
    endForNonPayment: async (ref) =>
      isOneTimeRef(ref) ? notForOneTime(ref, 'fall overdue') : endForNonPayment(stripe, ref),
    refund: (ref, options) => refund(stripe, ref, options),
    fetchSubscription: async (ref) =>
      isOneTimeRef(ref)
        ? ((await readOneTime(stripe, ref, now()))?.subscription ?? null)
        : readSubscription(stripe, ref),
    fetchInvoice: async (ref) => (await readInvoiceSnapshots(stripe, ref, now()))?.invoice ?? null,
    verifyWebhook: async (rawBody, headers) => {
      const events = await verifyStripeWebhook(
        stripe,
        settings.webhookSecret,
        rawBody,
        headers,
        now,
      );
      for (const event of events) log.debug({ event: event.ref, type: event.type }, 'stripe event');
      return events;
    },
    listSubscriptions: (since) => listSubscriptions(stripe, since),
    startCardSetup: (input) => startCardSetup(stripe, input),
  };
}
