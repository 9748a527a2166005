import type { SubscriptionStatus } from './actions.ts';

// The membership's own actions beside §4's: cancel at period end, resume, pause and
// continue. §4 does not list them; the server decides by these rules (and refuses any other
// case) and the membership screen offers exactly these buttons.

export interface LifecycleSubject {
  status: SubscriptionStatus;
  onetime: boolean;
  cancelAtPeriodEnd: boolean;
  /**
   * How it is paid (§3 payment_method.type): card and PayPal subscriptions can pause (PayPal
   * suspends it); the App Store and crypto have no pause.
   */
  paymentMethodType: string;
  exists?: boolean;
}

export interface LifecycleActions {
  /** Stop renewing at the end of the paid period. */
  cancel: boolean;
  /** Keep renewing after all. */
  resume: boolean;
  /** Stop renewals for a while; access lasts to the end of the paid period. */
  pause: boolean;
  /** Renew again after a pause. */
  continue: boolean;
}

export type LifecycleAction = keyof LifecycleActions;

export function lifecycleActions(subscription: LifecycleSubject): LifecycleActions {
  const { status, cancelAtPeriodEnd: ending } = subscription;
  // A one-time plan never renews, so there is nothing to stop or start again.
  const renewing = subscription.exists !== false && !subscription.onetime;
  return {
    cancel: renewing && status === 'active' && !ending,
    // PayPal cannot take a cancel back: a canceled PayPal plan runs out, then is bought anew.
    resume:
      renewing &&
      subscription.paymentMethodType !== 'paypal' &&
      (status === 'canceled' || (status === 'active' && ending)),
    pause:
      renewing &&
      status === 'active' &&
      !ending &&
      (subscription.paymentMethodType === 'card' || subscription.paymentMethodType === 'paypal'),
    continue: renewing && status === 'paused',
  };
}
