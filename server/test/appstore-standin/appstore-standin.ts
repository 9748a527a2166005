import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppStoreSettings } from '#shared/billing/gateway-settings.ts';
import { type ApiKey, bearerRefusal, createApiKey } from './api-key.ts';
import {
  DEMO_PRODUCTS,
  type StandinApp,
  type StandinProduct,
  StandinStore,
  type StandinSubscription,
  type StandinTransaction,
} from './standin-store.ts';
import { createSigningChain, type SigningChain } from './test-certificates.ts';

// A local App Store for tests, at the network boundary: the App Store Server API endpoints
// our adapter calls (each request's bearer token checked as Apple does), Apple-signed data
// from a test chain, and controls that act as a customer's iPhone and Apple's billing would:
// a StoreKit purchase, a renewal, a failed renewal, auto-renew off, expiry, a refund. Each
// change sends a signed notification V2 (`{"signedPayload": …}`) to our webhook.

export interface SentNotification {
  uuid: string;
  type: string;
  subtype: string | undefined;
  /** The request body as posted. */
  body: string;
  /** Our webhook's answer; null while held. */
  status: number | null;
}

export interface AppStoreStandinOptions {
  port?: number;
  host?: string;
  bundleId?: string;
  appAppleId?: number;
  environment?: 'Sandbox' | 'Production';
  chain?: SigningChain;
  apiKey?: ApiKey;
  products?: Record<string, StandinProduct>;
  /** Posts a notification body to our webhook and answers its HTTP status. */
  deliver?: (body: string) => Promise<number>;
}

export interface PurchaseResult {
  /** The transaction as the app holds it after the purchase (Transaction.jwsRepresentation). */
  signedTransaction: string;
  transactionId: string;
  originalTransactionId: string;
  notification: SentNotification;
}

export interface AppStoreStandin {
  url: string;
  chain: SigningChain;
  apiKey: ApiKey;
  store: StandinStore;
  /** Settings for our adapter that point it here. */
  settings(): AppStoreSettings;
  notifications: SentNotification[];
  /** While true, notifications are made and recorded but not sent (send them with deliver). */
  holdNotifications: boolean;
  deliver(notification: SentNotification): Promise<number>;
  /** Requests the API refused, with why (tests of the bearer token). */
  refusedRequests: string[];
  apiRequests: string[];
  /** `notify: false` keeps this purchase's notification back (a delivery that never came). */
  purchase(input: {
    appAccountToken?: string;
    productId: string;
    appleId?: string;
    notify?: boolean;
  }): Promise<PurchaseResult>;
  renew(originalTransactionId: string): Promise<SentNotification>;
  failToRenew(
    originalTransactionId: string,
    options?: { grace?: boolean },
  ): Promise<SentNotification>;
  setAutoRenew(originalTransactionId: string, on: boolean): Promise<SentNotification>;
  expire(originalTransactionId: string): Promise<SentNotification>;
  refund(transactionId: string): Promise<SentNotification>;
  close(): Promise<void>;
}

function json(response: ServerResponse, status: number, body?: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(body === undefined ? '' : JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

const TRANSACTION_NOT_FOUND = { errorCode: 4040010, errorMessage: 'Transaction id not found.' };
const INVALID_TRANSACTION_ID = { errorCode: 4000006, errorMessage: 'Invalid transaction id.' };

export async function startAppStoreStandin(
  options: AppStoreStandinOptions = {},
): Promise<AppStoreStandin> {
  const app: StandinApp = {
    bundleId: options.bundleId ?? 'com.shieldline.vpn',
    appAppleId: options.appAppleId ?? 1_234_567_890,
    environment: options.environment ?? 'Sandbox',
  };
  const chain = options.chain ?? createSigningChain();
  const apiKey = options.apiKey ?? createApiKey();
  const store = new StandinStore(app, chain, options.products ?? DEMO_PRODUCTS);
  const deliverBody = options.deliver ?? (async () => 200);

  const subscriptionOf = (originalTransactionId: string): StandinSubscription => {
    const found = store.subscriptions.get(originalTransactionId);
    if (!found) throw new Error(`no subscription ${originalTransactionId}`);
    return found;
  };

  const standin: AppStoreStandin = {
    url: '',
    chain,
    apiKey,
    store,
    notifications: [],
    holdNotifications: false,
    refusedRequests: [],
    apiRequests: [],
    settings: () => ({
      bundleId: app.bundleId,
      environment: app.environment,
      ...(app.environment === 'Production' ? { appAppleId: app.appAppleId } : {}),
      issuerId: apiKey.issuerId,
      keyId: apiKey.keyId,
      privateKey: apiKey.privateKeyPem,
      rootCertificates: chain.rootPem,
      apiUrl: standin.url,
    }),
    async deliver(notification) {
      notification.status = await deliverBody(notification.body);
      return notification.status;
    },
    async purchase(input) {
      const { transaction } = store.purchase(input);
      const notification = await notify('SUBSCRIBED', 'INITIAL_BUY', transaction, input.notify);
      return {
        signedTransaction: store.signedTransaction(transaction),
        transactionId: transaction.transactionId,
        originalTransactionId: transaction.originalTransactionId,
        notification,
      };
    },
    async renew(originalTransactionId) {
      const subscription = subscriptionOf(originalTransactionId);
      const recovered = subscription.status === 3 || subscription.status === 4;
      const transaction = store.renew(subscription);
      return notify('DID_RENEW', recovered ? 'BILLING_RECOVERY' : undefined, transaction);
    },
    async failToRenew(originalTransactionId, failOptions = {}) {
      const subscription = subscriptionOf(originalTransactionId);
      store.failToRenew(subscription, failOptions.grace ?? false);
      return notify(
        'DID_FAIL_TO_RENEW',
        failOptions.grace ? 'GRACE_PERIOD' : undefined,
        store.latest(subscription),
      );
    },
    async setAutoRenew(originalTransactionId, on) {
      const subscription = subscriptionOf(originalTransactionId);
      subscription.autoRenew = on;
      return notify(
        'DID_CHANGE_RENEWAL_STATUS',
        on ? 'AUTO_RENEW_ENABLED' : 'AUTO_RENEW_DISABLED',
        store.latest(subscription),
      );
    },
    async expire(originalTransactionId) {
      const subscription = subscriptionOf(originalTransactionId);
      const voluntary = !subscription.autoRenew;
      store.expire(subscription);
      return notify(
        'EXPIRED',
        voluntary ? 'VOLUNTARY' : 'BILLING_RETRY',
        store.latest(subscription),
      );
    },
    async refund(transactionId) {
      const transaction = store.transactions.get(transactionId);
      if (!transaction) throw new Error(`no transaction ${transactionId}`);
      store.refund(transaction);
      return notify('REFUND', undefined, transaction);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  async function notify(
    type: string,
    subtype: string | undefined,
    transaction: StandinTransaction,
    send = !standin.holdNotifications,
  ): Promise<SentNotification> {
    const { uuid, signedPayload } = store.signedNotification(type, subtype, transaction);
    const notification: SentNotification = {
      uuid,
      type,
      subtype,
      body: JSON.stringify({ signedPayload }),
      status: null,
    };
    standin.notifications.push(notification);
    if (send) await standin.deliver(notification);
    return notification;
  }

  async function api(request: IncomingMessage, response: ServerResponse, path: string) {
    const refusal = bearerRefusal(request.headers.authorization, apiKey, app.bundleId);
    if (refusal) {
      standin.refusedRequests.push(`${path}: ${refusal}`);
      return json(response, 401);
    }
    standin.apiRequests.push(path);
    const [, version, resource, id, extra] = path.split('/').slice(1);
    const lookup = resource === 'refund' ? extra : id;
    if (!lookup || !/^\d+$/.test(lookup)) return json(response, 400, INVALID_TRANSACTION_ID);
    if (version === 'v1' && resource === 'subscriptions') {
      const answer = store.statusResponse(lookup);
      return answer ? json(response, 200, answer) : json(response, 404, TRANSACTION_NOT_FOUND);
    }
    if (version === 'v1' && resource === 'transactions') {
      const transaction = store.transactions.get(lookup);
      return transaction
        ? json(response, 200, { signedTransactionInfo: store.signedTransaction(transaction) })
        : json(response, 404, TRANSACTION_NOT_FOUND);
    }
    if (resource === 'history' || (resource === 'refund' && id === 'lookup')) {
      const transactions = store.history(lookup, resource === 'refund');
      if (!transactions) return json(response, 404, TRANSACTION_NOT_FOUND);
      const signedTransactions = transactions.map((each) => store.signedTransaction(each));
      return json(response, 200, {
        revision: String(transactions.length),
        hasMore: false,
        ...(resource === 'history'
          ? { bundleId: app.bundleId, appAppleId: app.appAppleId, environment: app.environment }
          : {}),
        signedTransactions,
      });
    }
    return json(response, 404, { errorCode: 4040000, errorMessage: 'Not found.' });
  }

  /** The customer's iPhone and Apple's billing, for journeys that cannot call us in-process. */
  async function control(request: IncomingMessage, response: ServerResponse, action: string) {
    const body = await readJson(request);
    const text = (key: string) => String(body[key] ?? '');
    switch (action) {
      case 'purchase': {
        const bought = await standin.purchase({
          appAccountToken: text('appAccountToken') || undefined,
          productId: text('productId'),
          notify: body.notify !== false,
        });
        return json(response, 200, bought);
      }
      case 'renew':
        return json(response, 200, await standin.renew(text('originalTransactionId')));
      case 'fail-to-renew':
        return json(
          response,
          200,
          await standin.failToRenew(text('originalTransactionId'), { grace: body.grace === true }),
        );
      case 'auto-renew':
        return json(
          response,
          200,
          await standin.setAutoRenew(text('originalTransactionId'), body.on === true),
        );
      case 'expire':
        return json(response, 200, await standin.expire(text('originalTransactionId')));
      case 'refund':
        return json(response, 200, await standin.refund(text('transactionId')));
      default:
        return json(response, 404, { error: 'no such control' });
    }
  }

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://standin').pathname;
    const handle = async () => {
      if (request.method === 'GET' && path === '/healthz') return json(response, 200, { ok: true });
      if (request.method === 'GET' && path.startsWith('/inApps/'))
        return api(request, response, path);
      if (request.method === 'POST' && path.startsWith('/standin/')) {
        return control(request, response, path.slice('/standin/'.length));
      }
      return json(response, 404, { error: 'not found' });
    };
    handle().catch((error: unknown) => {
      if (!response.headersSent) json(response, 500, { error: String(error) });
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const address = server.address() as AddressInfo;
  standin.url = `http://127.0.0.1:${address.port}`;
  return standin;
}
