import { randomUUID } from 'node:crypto';
import { signJws } from './jws.ts';
import type { SigningChain } from './test-certificates.ts';

// The stand-in's App Store: subscriptions with their transactions, in memory, and the JWS
// Apple would sign for each (transactions, renewal info, notifications V2), with the leaf of
// the stand-in's chain and the chain in the header's x5c.

export interface StandinProduct {
  /** Milliunits, as Apple writes prices: 12990 is 12.99. */
  price: number;
  currency: string;
  months: number;
}

/** The demo catalog's App Store products (demo-catalog.ts APP_STORE_PRODUCT_IDS), in USD. */
export const DEMO_PRODUCTS: Record<string, StandinProduct> = {
  'com.shieldline.vpn.monthly': { price: 12_990, currency: 'USD', months: 1 },
  'com.shieldline.vpn.yearly': { price: 71_880, currency: 'USD', months: 12 },
};

export interface StandinTransaction {
  transactionId: string;
  originalTransactionId: string;
  productId: string;
  purchaseDate: number;
  expiresDate: number;
  price: number;
  currency: string;
  reason: 'PURCHASE' | 'RENEWAL';
  appAccountToken: string | undefined;
  revocationDate?: number;
}

/** App Store statuses: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked. */
export type StandinStatus = 1 | 2 | 3 | 4 | 5;

export interface StandinSubscription {
  originalTransactionId: string;
  /** The buyer's Apple ID: the API answers all of one Apple ID's subscriptions together. */
  appleId: string;
  appAccountToken: string | undefined;
  productId: string;
  status: StandinStatus;
  autoRenew: boolean;
  gracePeriodExpiresDate?: number;
  expirationIntent?: number;
  transactions: StandinTransaction[];
}

export interface StandinApp {
  bundleId: string;
  appAppleId: number;
  environment: 'Sandbox' | 'Production';
}

export const SUBSCRIPTION_GROUP = '21000001';

const addMonths = (millis: number, months: number) => {
  const date = new Date(millis);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.getTime();
};

export class StandinStore {
  readonly subscriptions = new Map<string, StandinSubscription>();
  readonly transactions = new Map<string, StandinTransaction>();
  #nextId = 2_000_000_000_000_000 + Math.floor(Math.random() * 1_000_000) * 1000;

  constructor(
    readonly app: StandinApp,
    readonly chain: SigningChain,
    readonly products: Record<string, StandinProduct>,
  ) {}

  #id(): string {
    this.#nextId += 1;
    return String(this.#nextId);
  }

  latest(subscription: StandinSubscription): StandinTransaction {
    const last = subscription.transactions.at(-1);
    if (!last) throw new Error('a subscription without transactions');
    return last;
  }

  #addTransaction(
    subscription: StandinSubscription,
    start: number,
    reason: StandinTransaction['reason'],
  ): StandinTransaction {
    const product = this.products[subscription.productId];
    if (!product) throw new Error(`unknown product ${subscription.productId}`);
    const transactionId =
      subscription.transactions.length === 0 ? subscription.originalTransactionId : this.#id();
    const transaction: StandinTransaction = {
      transactionId,
      originalTransactionId: subscription.originalTransactionId,
      productId: subscription.productId,
      purchaseDate: start,
      expiresDate: addMonths(start, product.months),
      price: product.price,
      currency: product.currency,
      reason,
      appAccountToken: subscription.appAccountToken,
    };
    subscription.transactions.push(transaction);
    this.transactions.set(transactionId, transaction);
    return transaction;
  }

  purchase(input: { appAccountToken?: string; productId: string; appleId?: string }) {
    if (!this.products[input.productId]) throw new Error(`unknown product ${input.productId}`);
    const subscription: StandinSubscription = {
      originalTransactionId: this.#id(),
      appleId: input.appleId ?? input.appAccountToken ?? randomUUID(),
      appAccountToken: input.appAccountToken,
      productId: input.productId,
      status: 1,
      autoRenew: true,
      transactions: [],
    };
    this.subscriptions.set(subscription.originalTransactionId, subscription);
    const transaction = this.#addTransaction(subscription, Date.now(), 'PURCHASE');
    return { subscription, transaction };
  }

  /** The next period, paid: from the end of the last one. */
  renew(subscription: StandinSubscription): StandinTransaction {
    subscription.status = 1;
    delete subscription.gracePeriodExpiresDate;
    delete subscription.expirationIntent;
    return this.#addTransaction(subscription, this.latest(subscription).expiresDate, 'RENEWAL');
  }

  failToRenew(subscription: StandinSubscription, grace: boolean): void {
    subscription.status = grace ? 4 : 3;
    subscription.expirationIntent = 2;
    if (grace) {
      subscription.gracePeriodExpiresDate = this.latest(subscription).expiresDate + 16 * 86_400_000;
    }
  }

  expire(subscription: StandinSubscription): void {
    subscription.status = 2;
    subscription.expirationIntent = subscription.autoRenew ? 2 : 1;
    delete subscription.gracePeriodExpiresDate;
  }

  /** Apple refunds a transaction: revoked, and the subscription with it when it is the latest. */
  refund(transaction: StandinTransaction): StandinSubscription {
    transaction.revocationDate = Date.now();
    const subscription = this.subscriptions.get(transaction.originalTransactionId);
    if (!subscription) throw new Error('a transaction without its subscription');
    if (this.latest(subscription) === transaction) {
      subscription.status = 5;
      subscription.autoRenew = false;
    }
    return subscription;
  }

  /** What Apple signs with its chain: our leaf key, x5c = leaf, intermediate, root. */
  sign(payload: object): string {
    return signJws(payload, this.chain.leafKeyPem, { x5c: this.chain.x5c });
  }

  signedTransaction(transaction: StandinTransaction): string {
    const subscription = this.subscriptions.get(transaction.originalTransactionId);
    const first = subscription?.transactions[0] ?? transaction;
    return this.sign({
      transactionId: transaction.transactionId,
      originalTransactionId: transaction.originalTransactionId,
      webOrderLineItemId: `${transaction.transactionId}0`,
      bundleId: this.app.bundleId,
      productId: transaction.productId,
      subscriptionGroupIdentifier: SUBSCRIPTION_GROUP,
      purchaseDate: transaction.purchaseDate,
      originalPurchaseDate: first.purchaseDate,
      expiresDate: transaction.expiresDate,
      quantity: 1,
      type: 'Auto-Renewable Subscription',
      ...(transaction.appAccountToken ? { appAccountToken: transaction.appAccountToken } : {}),
      inAppOwnershipType: 'PURCHASED',
      signedDate: Date.now(),
      environment: this.app.environment,
      transactionReason: transaction.reason,
      storefront: 'USA',
      storefrontId: '143441',
      price: transaction.price,
      currency: transaction.currency,
      ...(transaction.revocationDate
        ? { revocationDate: transaction.revocationDate, revocationReason: 0 }
        : {}),
    });
  }

  signedRenewalInfo(subscription: StandinSubscription): string {
    const latest = this.latest(subscription);
    const product = this.products[subscription.productId];
    return this.sign({
      originalTransactionId: subscription.originalTransactionId,
      autoRenewProductId: subscription.productId,
      productId: subscription.productId,
      autoRenewStatus: subscription.autoRenew ? 1 : 0,
      isInBillingRetryPeriod: subscription.status === 3 || subscription.status === 4,
      ...(subscription.gracePeriodExpiresDate
        ? { gracePeriodExpiresDate: subscription.gracePeriodExpiresDate }
        : {}),
      ...(subscription.expirationIntent ? { expirationIntent: subscription.expirationIntent } : {}),
      signedDate: Date.now(),
      environment: this.app.environment,
      recentSubscriptionStartDate: subscription.transactions[0]?.purchaseDate,
      renewalDate: latest.expiresDate,
      currency: product?.currency,
      renewalPrice: product?.price,
      ...(subscription.appAccountToken ? { appAccountToken: subscription.appAccountToken } : {}),
    });
  }

  /** A notification V2's signedPayload (responseBodyV2DecodedPayload) about a transaction. */
  signedNotification(
    type: string,
    subtype: string | undefined,
    transaction: StandinTransaction,
  ): { uuid: string; signedPayload: string } {
    const subscription = this.subscriptions.get(transaction.originalTransactionId);
    if (!subscription) throw new Error('a transaction without its subscription');
    const uuid = randomUUID();
    const signedPayload = this.sign({
      notificationType: type,
      ...(subtype ? { subtype } : {}),
      notificationUUID: uuid,
      version: '2.0',
      signedDate: Date.now(),
      data: {
        appAppleId: this.app.appAppleId,
        bundleId: this.app.bundleId,
        bundleVersion: '1.0',
        environment: this.app.environment,
        signedTransactionInfo: this.signedTransaction(transaction),
        signedRenewalInfo: this.signedRenewalInfo(subscription),
        status: subscription.status,
      },
    });
    return { uuid, signedPayload };
  }

  /** The Get All Subscription Statuses answer for the Apple ID owning `anyTransactionId`. */
  statusResponse(anyTransactionId: string) {
    const owner = this.transactions.get(anyTransactionId);
    const subscription = owner && this.subscriptions.get(owner.originalTransactionId);
    if (!subscription) return null;
    const mine = [...this.subscriptions.values()].filter(
      (each) => each.appleId === subscription.appleId,
    );
    return {
      environment: this.app.environment,
      bundleId: this.app.bundleId,
      appAppleId: this.app.appAppleId,
      data: [
        {
          subscriptionGroupIdentifier: SUBSCRIPTION_GROUP,
          lastTransactions: mine.map((each) => ({
            status: each.status,
            originalTransactionId: each.originalTransactionId,
            signedTransactionInfo: this.signedTransaction(this.latest(each)),
            signedRenewalInfo: this.signedRenewalInfo(each),
          })),
        },
      ],
    };
  }

  /** Every transaction of the Apple ID owning `anyTransactionId`, oldest first. */
  history(anyTransactionId: string, revokedOnly = false): StandinTransaction[] | null {
    const owner = this.transactions.get(anyTransactionId);
    const subscription = owner && this.subscriptions.get(owner.originalTransactionId);
    if (!subscription) return null;
    return [...this.subscriptions.values()]
      .filter((each) => each.appleId === subscription.appleId)
      .flatMap((each) => each.transactions)
      .filter((each) => !revokedOnly || each.revocationDate !== undefined)
      .sort((a, b) => a.purchaseDate - b.purchaseDate);
  }
}
