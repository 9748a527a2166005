import type { CryptomusSettings } from '#shared/billing/gateway-settings.ts';
import {
  type GatewayDeps,
  type GatewayRefund,
  GatewayRequestError,
  type GatewaySubscription,
  GatewayUnavailable,
  type PaymentGateway,
  webhookUrl,
} from '../gateway.ts';
import { assertOneTime, invoiceRequest } from './cryptomus-checkout.ts';
import { createCryptomusClient } from './cryptomus-client.ts';
import { listInvoicesSince } from './cryptomus-list.ts';
import { type CryptomusInvoice, cryptomusInvoice, customerRefOf } from './cryptomus-objects.ts';
import { snapshotsOf, stageOf } from './cryptomus-snapshots.ts';
import { verifyCryptomusWebhook } from './cryptomus-webhooks.ts';

/** Refunds go back to a wallet address the customer gives (see `refund`). */
export interface CryptomusRefundOptions {
  amount?: number;
  reason?: string;
  address?: string;
}

export interface CryptomusGateway extends PaymentGateway {
  refund(paymentRef: string, options: CryptomusRefundOptions): Promise<GatewayRefund>;
}

/**
 * Cryptomus (service 6): one-time crypto invoices on its hosted page. A purchase is one
 * invoice (ref: its uuid) and, once Cryptomus says it is paid and final, a one-time
 * subscription (ref: our order id) for the period bought. Renewal, pauses and plan changes
 * do not exist there: a customer buys the next period again.
 */
export function createCryptomusGateway(
  settings: CryptomusSettings,
  deps: GatewayDeps,
): CryptomusGateway {
  const client = createCryptomusClient(settings);
  const { log } = deps;

  async function readInvoice(by: { uuid: string } | { order_id: string }) {
    const parsed = cryptomusInvoice.safeParse(await client.call('/v1/payment/info', by));
    if (!parsed.success)
      throw new GatewayUnavailable('Cryptomus answered an unknown invoice shape');
    return parsed.data;
  }

  async function readOrNull(by: { uuid: string } | { order_id: string }) {
    try {
      return await readInvoice(by);
    } catch (error) {
      if (error instanceof GatewayRequestError && error.kind === 'not_found') return null;
      throw error;
    }
  }

  async function paidSubscription(orderId: string): Promise<GatewaySubscription> {
    const invoice = await readOrNull({ order_id: orderId });
    const subscription = invoice && snapshotsOf(invoice, new Date())?.subscription;
    if (!subscription) {
      throw new GatewayRequestError('not_found', `no paid Cryptomus order ${orderId}`);
    }
    return subscription;
  }

  const notOneTime = (what: string) => async (): Promise<never> => {
    throw new GatewayRequestError('invalid_state', `Cryptomus purchases cannot ${what}`);
  };

  async function refund(paymentRef: string, options: CryptomusRefundOptions) {
    // Crypto goes back to an address, which only the customer can give: the payer's `from`
    // may be an exchange's shared wallet, so it is never guessed.
    if (!options.address) {
      throw new GatewayRequestError('invalid_request', 'a Cryptomus refund needs options.address');
    }
    const invoice = await readInvoice({ uuid: paymentRef });
    const settled = invoice.status === 'paid' || invoice.status === 'paid_over';
    if (!settled || stageOf(invoice) !== 'paid') {
      throw new GatewayRequestError('invalid_state', `Cryptomus payment is ${invoice.status}`);
    }
    const total = snapshotsOf(invoice, new Date())?.invoice.total ?? 0;
    if (options.amount !== undefined && options.amount !== total) {
      throw new GatewayRequestError('invalid_request', 'Cryptomus refunds whole payments only');
    }
    // is_subtract: its fee is taken from our balance, so the customer gets back all they paid.
    await client.call('/v1/payment/refund', {
      uuid: invoice.uuid,
      address: options.address,
      is_subtract: true,
    });
    const refund: GatewayRefund = {
      ref: `${invoice.uuid}:refund`,
      paymentRef: invoice.uuid,
      invoiceRef: invoice.uuid,
      amount: total,
      currency: invoice.currency,
      reason: options.reason ?? null,
      createdAt: new Date(),
    };
    return refund;
  }

  return {
    name: 'cryptomus',
    serviceId: 6,
    paymentMethodType: 'crypto',
    checkoutStyle: {
      checkout: 'redirect',
      tokenizeUrl: null,
      googlePay: false,
      applePay: false,
      cryptoProcessing: true,
    },
    cards: null,

    // Cryptomus keeps no customers and no catalog: our names stand in for both.
    ensureCustomer: async (customer) => customerRefOf(customer.userId),
    ensurePrice: async (price) => {
      assertOneTime(price);
      return String(price.productId);
    },

    async startSubscription(input) {
      const body = invoiceRequest(input, webhookUrl(deps.appUrl, 'cryptomus'));
      const created = cryptomusInvoice.safeParse(await client.call('/v1/payment', body));
      if (!created.success || !created.data.url) {
        throw new GatewayUnavailable('Cryptomus answered an invoice without its page');
      }
      log.info({ uuid: created.data.uuid, orderId: body.order_id }, 'cryptomus invoice made');
      // Nothing is granted before its webhook and status call say it is paid.
      return { kind: 'redirect', url: created.data.url, subscription: null };
    },

    previewChange: notOneTime('change plan'),
    changePlan: notOneTime('change plan'),
    pause: notOneTime('pause'),
    unpause: notOneTime('pause'),
    payInvoice: notOneTime('be charged again'),
    endForNonPayment: notOneTime('fall overdue'),

    // A one-time purchase simply runs out: cancelling it only says so. Cryptomus keeps no
    // such flag, so a later read of the order shows it running to its end again, which is
    // what it does either way.
    async cancel(ref, { atPeriodEnd }) {
      if (!atPeriodEnd) {
        throw new GatewayRequestError('invalid_state', 'a paid crypto period can only be refunded');
      }
      const subscription = await paidSubscription(ref);
      return {
        ...subscription,
        status: subscription.status === 'active' ? 'canceled' : subscription.status,
        cancelAtPeriodEnd: true,
        canceledAt: subscription.updatedAt,
      };
    },
    resume: (ref) => paidSubscription(ref),

    refund,

    async fetchSubscription(ref) {
      const invoice = await readOrNull({ order_id: ref });
      return (invoice && snapshotsOf(invoice, new Date())?.subscription) ?? null;
    },
    async fetchInvoice(ref) {
      const invoice = await readOrNull({ uuid: ref });
      return (invoice && snapshotsOf(invoice, new Date())?.invoice) ?? null;
    },

    verifyWebhook: (rawBody) =>
      verifyCryptomusWebhook(
        {
          paymentKey: settings.paymentKey,
          readInvoice: (uuid): Promise<CryptomusInvoice> => readInvoice({ uuid }),
          log,
        },
        rawBody,
      ),

    async *listSubscriptions(since) {
      for await (const invoice of listInvoicesSince(client, since)) {
        const subscription = snapshotsOf(invoice, new Date())?.subscription;
        if (subscription) yield subscription;
      }
    },
  };
}
