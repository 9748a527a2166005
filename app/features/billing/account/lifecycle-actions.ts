import type { SubscriptionDetail } from '#shared/contracts/billing.ts';
import {
  type LifecycleActions,
  lifecycleActions as sharedLifecycleActions,
} from '#shared/subscription/lifecycle.ts';

// The membership's period line; its buttons follow shared/subscription/lifecycle.ts.

type Lifecycle = Pick<SubscriptionDetail, 'status' | 'onetime' | 'cancel_at_period_end'> & {
  payment_method: Pick<SubscriptionDetail['payment_method'], 'type'>;
  exists?: boolean;
};

export type { LifecycleActions };

/** The cancel, resume, pause and continue buttons a subscription offers. */
export function lifecycleActions(subscription: Lifecycle): LifecycleActions {
  return sharedLifecycleActions({
    status: subscription.status,
    onetime: subscription.onetime,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    paymentMethodType: subscription.payment_method.type,
    ...(subscription.exists === undefined ? {} : { exists: subscription.exists }),
  });
}

/** Which end (or renewal) date the membership shows, and the date it reads. */
export type PeriodLine =
  | { kind: 'renews' | 'ends' | 'ended' | 'access_until' | 'paused'; date: string }
  | { kind: 'none' };

export function periodLine(
  subscription: Pick<
    SubscriptionDetail,
    | 'status'
    | 'onetime'
    | 'cancel_at_period_end'
    | 'current_period_end'
    | 'grace_until'
    | 'ended_at'
    | 'paused_at'
  >,
): PeriodLine {
  const s = subscription;
  const at = (kind: Exclude<PeriodLine['kind'], 'none'>, date: string | null): PeriodLine =>
    date ? { kind, date } : { kind: 'none' };
  switch (s.status) {
    case 'on_hold':
      return at('access_until', s.grace_until ?? s.current_period_end);
    case 'expired':
    case 'refunded':
    case 'failed':
      return at('ended', s.ended_at ?? (s.status === 'expired' ? s.current_period_end : null));
    case 'canceled':
      return at('ends', s.current_period_end);
    case 'paused':
      return at('paused', s.current_period_end);
    case 'active':
      return at(s.cancel_at_period_end || s.onetime ? 'ends' : 'renews', s.current_period_end);
  }
}
