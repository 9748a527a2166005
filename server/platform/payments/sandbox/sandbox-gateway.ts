import type { FastifyInstance } from 'fastify';
import type { PaymentGateway } from '../gateway.ts';
import { inBooks, readObject } from './books.ts';
import { sandboxCardVault } from './card-vault.ts';
import { changePlan, previewChange } from './change-plan.ts';
import { confirmationRoutes } from './confirmation-routes.ts';
import { ensureCustomer, ensurePrice } from './customers-and-prices.ts';
import { payInvoice } from './pay-invoice.ts';
import { refund } from './refunds.ts';
import { RENEWALS_QUEUE, runRenewals } from './renewals.ts';
import type { SandboxContext } from './sandbox-context.ts';
import { invoiceSnapshot, subscriptionSnapshot } from './snapshots.ts';
import { startSubscription } from './start-subscription.ts';
import { cancel, endForNonPayment, pause, resume, unpause } from './subscription-actions.ts';
import { testClockRoutes } from './test-clock-routes.ts';
import { TOKENS_PATH, tokenRoutes } from './token-routes.ts';
import {
  announceEvents,
  announceUnsentEvents,
  deliverEvent,
  WEBHOOK_QUEUE,
} from './webhook-delivery.ts';
import { verifySandboxWebhook } from './webhook-events.ts';

export { SandboxRequestError } from './sandbox-errors.ts';
export { WEBHOOK_URL } from './webhook-delivery.ts';
export { signSandboxWebhook } from './webhook-signature.ts';

export interface SandboxGatewayOptions {
  /** Signs the webhooks it sends; verifyWebhook checks them with it. */
  webhookSecret: string;
  /** Seconds before a failed delivery is retried, doubled each time (10 by default). */
  webhookRetryDelaySeconds?: number;
}

/** `Shieldline VPN` of `Shieldline VPN <no-reply@…>`, for the confirmation page. */
function merchantName(mailFrom: string, appUrl: string): string {
  const name = /^\s*"?([^"<]+?)"?\s*</.exec(mailFrom)?.[1];
  return name || new URL(appUrl).host;
}

/**
 * The sandbox gateway: a card processor's test mode (Stripe's, in spirit) for service 1,
 * so the embedded default sells for real with no network. It keeps its own books
 * (`sandbox_objects`), takes cards through its tokenizer, asks for 3-D Secure on its own
 * confirmation page, renews on its own schedule (and on the test clock), and tells us of
 * every change by signed webhook, exactly as a real processor behind PaymentGateway would.
 *
 * Registers its routes (tokens, confirmation page, test clock) and queue workers (webhook
 * delivery, the renewal sweep) on `app`; `app.payments.clock` must be decorated already.
 */
export async function createSandboxGateway(
  app: FastifyInstance,
  options: SandboxGatewayOptions,
): Promise<PaymentGateway> {
  const context: SandboxContext = {
    db: app.db,
    clock: app.payments.clock,
    queue: app.queue,
    log: app.log.child({ component: 'sandbox-gateway' }),
    appUrl: app.config.appUrl,
    merchantName: merchantName(app.config.mailFrom, app.config.appUrl),
    webhookSecret: options.webhookSecret,
    webhookRetryDelaySeconds: options.webhookRetryDelaySeconds ?? 10,
    announce: (eventIds) => announceEvents(context, eventIds),
  };

  await app.register(async (scope) => {
    tokenRoutes(scope, context);
    testClockRoutes(scope, context);
    // Its own scope: the form parser it adds serves the confirmation page's form only.
    await scope.register(async (pages) => confirmationRoutes(pages, context));
  });

  const sweep = async () => {
    await runRenewals(context);
    await announceUnsentEvents(context);
  };
  await app.queue.work(WEBHOOK_QUEUE, (job) => deliverEvent(app, context, job));
  await app.queue.work(RENEWALS_QUEUE, sweep);
  await app.queue.schedule(RENEWALS_QUEUE, '* * * * *');
  const stopFollowingClock = context.clock.onAdvance(() => runRenewals(context));
  app.addHook('onClose', async () => {
    stopFollowingClock();
  });

  return {
    name: 'sandbox',
    serviceId: 1,
    paymentMethodType: 'card',
    checkoutStyle: {
      checkout: 'card_form',
      tokenizeUrl: TOKENS_PATH,
      googlePay: false,
      applePay: false,
      cryptoProcessing: false,
    },
    cards: sandboxCardVault(context),
    ensureCustomer: (customer) => inBooks(context, (books) => ensureCustomer(books, customer)),
    ensurePrice: (price) => inBooks(context, async (books) => (await ensurePrice(books, price)).id),
    startSubscription: (input) => startSubscription(context, input),
    previewChange: (input) => previewChange(context, input),
    changePlan: (input) => changePlan(context, input),
    cancel: (ref, cancelOptions) => cancel(context, ref, cancelOptions),
    resume: (ref) => resume(context, ref),
    pause: (ref) => pause(context, ref),
    unpause: (ref) => unpause(context, ref),
    payInvoice: (ref, payOptions) => payInvoice(context, ref, payOptions),
    endForNonPayment: (ref) => endForNonPayment(context, ref),
    refund: (ref, refundOptions) => refund(context, ref, refundOptions),
    fetchSubscription: async (ref) => {
      const found = await readObject(context.db, 'subscription', ref);
      return found && subscriptionSnapshot(found);
    },
    fetchInvoice: async (ref) => {
      const found = await readObject(context.db, 'invoice', ref);
      return found && invoiceSnapshot(found);
    },
    verifyWebhook: async (rawBody, headers) =>
      verifySandboxWebhook(options.webhookSecret, rawBody, headers),
  };
}
