/** §4 Subscription statuses. */
export const SUBSCRIPTION_STATUSES = [
  'active',
  'paused',
  'canceled',
  'expired',
  'refunded',
  'on_hold',
  'failed',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Still running on its gateway (canceled: set to end at its period end, not ended yet). */
export const RUNNING_STATUSES = [
  'active',
  'paused',
  'canceled',
  'on_hold',
] as const satisfies readonly SubscriptionStatus[];

/** §9 Service ids: the payment service a subscription runs on. 3 is not in use. */
export const SERVICE_IDS = {
  card: 1,
  paypal: 2,
  inAppPurchase: 4,
  bonus: 5,
  crypto: 6,
} as const;
export type ServiceName = keyof typeof SERVICE_IDS;
export type ServiceId = (typeof SERVICE_IDS)[ServiceName];
export const SERVICE_ID_LIST = Object.values(SERVICE_IDS) as ServiceId[];

export function isServiceId(value: unknown): value is ServiceId {
  return (SERVICE_ID_LIST as unknown[]).includes(value);
}

/** The part of a subscription (§3) that decides which account actions are offered (§4). */
export interface SubscriptionValue {
  status: SubscriptionStatus;
  service_id: ServiceId;
  onetime: boolean;
  /** Absent means it exists; false is the gateway's placeholder for "none". */
  exists?: boolean;
}

type MaybeSubscription = SubscriptionValue | null | undefined;

// The spec's rules say nothing of a subscription that does not exist; no action can apply
// to one, so every rule below starts from this.
const existing = (subscription: MaybeSubscription): subscription is SubscriptionValue =>
  subscription != null && subscription.exists !== false;

const { card, paypal, inAppPurchase, bonus, crypto } = SERVICE_IDS;
const isCardOrPaypal = (s: SubscriptionValue) => s.service_id === card || s.service_id === paypal;

/**
 * §4 Upgrade: active on card or PayPal while no invoice is being finalised; active on in-app
 * purchase or crypto when one-time; paused or canceled on card or PayPal when recurring.
 */
export function canUpgrade(
  subscription: MaybeSubscription,
  lastInvoiceFinalizing: boolean,
): boolean {
  if (!existing(subscription)) return false;
  const s = subscription;
  if (s.status === 'active') {
    if (isCardOrPaypal(s)) return !lastInvoiceFinalizing;
    return (s.service_id === inAppPurchase || s.service_id === crypto) && s.onetime;
  }
  return (s.status === 'paused' || s.status === 'canceled') && isCardOrPaypal(s) && !s.onetime;
}

/**
 * §4 Reactivate: expired or refunded on card, PayPal or in-app purchase; or on crypto when
 * one-time. The spec's "or service 6 when one-time" is read as still needing the expired or
 * refunded status: reactivating a subscription that is running makes no sense, and the
 * clause is a fourth service in the same list with an extra condition.
 */
export function canReactivate(subscription: MaybeSubscription): boolean {
  if (!existing(subscription)) return false;
  const s = subscription;
  if (s.status !== 'expired' && s.status !== 'refunded') return false;
  return (
    isCardOrPaypal(s) || s.service_id === inAppPurchase || (s.service_id === crypto && s.onetime)
  );
}

/** §4 Bonus upgrade: a recurring bonus subscription that is active, expired or refunded. */
export function canBonusUpgrade(subscription: MaybeSubscription): boolean {
  if (!existing(subscription)) return false;
  const s = subscription;
  return (
    s.service_id === bonus &&
    !s.onetime &&
    (s.status === 'active' || s.status === 'expired' || s.status === 'refunded')
  );
}

/** §4 Membership page: offered whenever a subscription exists. */
export function hasMembership(subscription: MaybeSubscription): boolean {
  return existing(subscription);
}

/**
 * §4 Fix payment method: a recurring card or PayPal subscription that is on hold or failed,
 * or a recurring in-app purchase that failed.
 */
export function canFixPaymentMethod(subscription: MaybeSubscription): boolean {
  if (!existing(subscription)) return false;
  const s = subscription;
  if (s.onetime) return false;
  if (isCardOrPaypal(s)) return s.status === 'on_hold' || s.status === 'failed';
  return s.service_id === inAppPurchase && s.status === 'failed';
}

export interface AccountActions {
  upgrade: boolean;
  reactivate: boolean;
  bonusUpgrade: boolean;
  membership: boolean;
  fixPaymentMethod: boolean;
}

/** Every §4 account action at once, for menus and the billing screens. */
export function accountActions(
  subscription: MaybeSubscription,
  lastInvoiceFinalizing: boolean,
): AccountActions {
  return {
    upgrade: canUpgrade(subscription, lastInvoiceFinalizing),
    reactivate: canReactivate(subscription),
    bonusUpgrade: canBonusUpgrade(subscription),
    membership: hasMembership(subscription),
    fixPaymentMethod: canFixPaymentMethod(subscription),
  };
}
