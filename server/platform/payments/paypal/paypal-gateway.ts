import type { PayPalSettings } from '#shared/billing/gateway-settings.ts';
import { type GatewayDeps, GatewayRequestError, type PaymentGateway } from '../gateway.ts';
import { paypalApi } from './paypal-client.ts';
import { catalogProduct, ensurePlan } from './plans.ts';
import { RefundLedger } from './refund-ledger.ts';
import { refund } from './refunds.ts';
import { customerRefOf, invoiceSnapshot, subscriptionSnapshot } from './snapshots.ts';
import {
  type ActionContext,
  cancel,
  endForNonPayment,
  pause,
  resume,
  startSubscription,
  unpause,
} from './subscription-actions.ts';
import { PlanBook, readSubscription } from './subscription-reads.ts';
import { parseWebhookBody, paypalEvent } from './webhook-events.ts';
import { CertificateCache, verifyPayPalSignature } from './webhook-signature.ts';

/**
 * PayPal (service 2): plans and subscriptions through PayPal's approval link, over the
 * official SDK. The buyer approves on PayPal's page; PayPal takes every payment itself and
 * tells us by webhook, which we check with PayPal's certificate and then read back.
 *
 * No listing for the daily reconciliation: PayPal's list answers by status change, and a
 * cancelled subscription's paid period runs out with no change at PayPal, so ours are read
 * back one by one instead.
 */
export function createPayPalGateway(settings: PayPalSettings, deps: GatewayDeps): PaymentGateway {
  const api = paypalApi(settings);
  const plans = new PlanBook(api);
  const product = catalogProduct(api, deps.appUrl);
  const certificates = new CertificateCache();
  const refunds = new RefundLedger();
  const context: ActionContext = { api, plans, brandName: new URL(deps.appUrl).host };
  // PayPal cannot tell a payment's subscription from the payment; the ones we have read are
  // remembered for fetchInvoice.
  const subscriptionOfPayment = new Map<string, string>();
  const read = async (ref: string) => {
    const found = await readSubscription(api, plans, ref);
    for (const each of found.transactions) subscriptionOfPayment.set(each.id, ref);
    return found;
  };
  const orNull = async <T>(work: () => Promise<T>): Promise<T | null> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof GatewayRequestError && error.kind === 'not_found') return null;
      throw error;
    }
  };
  const noPlanChange = async (): Promise<never> => {
    // PayPal's revise asks the buyer to approve the new plan on its page again; our change
    // flow charges the difference now, which PayPal cannot.
    throw new GatewayRequestError(
      'invalid_state',
      'PayPal subscriptions change plan by a new order',
    );
  };

  return {
    name: 'paypal',
    serviceId: 2,
    paymentMethodType: 'paypal',
    checkoutStyle: {
      checkout: 'redirect',
      tokenizeUrl: null,
      googlePay: false,
      applePay: false,
      cryptoProcessing: false,
    },
    cards: null,
    takesCoupons: false,
    // No customer object at PayPal: the buyer is whoever approves; custom_id names our user.
    ensureCustomer: async (customer) => customerRefOf(customer.userId),
    ensurePrice: (price) => ensurePlan(api, plans, product, price),
    startSubscription: (input) => startSubscription(context, input),
    previewChange: noPlanChange,
    changePlan: noPlanChange,
    cancel: (ref, options) => cancel(context, ref, options),
    resume: (ref) => resume(context, ref),
    pause: (ref) => pause(context, ref),
    unpause: (ref) => unpause(context, ref),
    payInvoice: async (ref) => {
      // PayPal retries a failed payment on its own schedule, from the buyer's PayPal
      // account, which only the buyer can change: there is nothing for us to charge.
      throw new GatewayRequestError('invalid_state', `PayPal collects payment ${ref} itself`);
    },
    endForNonPayment: (ref) => endForNonPayment(context, ref),
    refund: (ref, options) => refund(api, ref, options, refunds),
    fetchSubscription: async (ref) => {
      const found = await orNull(() => read(ref));
      return found && subscriptionSnapshot(found);
    },
    fetchInvoice: async (ref) => {
      const subscriptionRef = subscriptionOfPayment.get(ref);
      if (!subscriptionRef) return null;
      const found = await orNull(() => read(subscriptionRef));
      return found && invoiceSnapshot(found, ref, refunds.totalOf(ref));
    },
    verifyWebhook: async (rawBody, headers) => {
      await verifyPayPalSignature(settings, certificates, rawBody, headers);
      return [await paypalEvent({ api, plans, refunds }, parseWebhookBody(rawBody))];
    },
  };
}
