import type { SubscriptionDetail } from '#shared/contracts/billing.ts';

// The membership screen's own buttons beside the §4 account actions (which come from
// shared/subscription/actions.ts): cancel at period end, resume, pause and continue. §4 does
// not list them; these are the server's rules for them (server/modules/billing
// subscription-actions.ts), which decides for real and refuses any other case
// (billing_errors.action_not_allowed).

type Lifecycle = Pick<SubscriptionDetail, 'status' | 'onetime' | 'cancel_at_period_end'> & {
  payment_method: Pick<SubscriptionDetail['payment_method'], 'type'>;
  exists?: boolean;
};

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

export function lifecycleActions(subscription: Lifecycle): LifecycleActions {
  const { status, onetime, cancel_at_period_end: ending } = subscription;
  // A one-time plan never renews, so there is nothing to stop or start again.
  const renewing = subscription.exists !== false && !onetime;
  return {
    cancel: renewing && status === 'active' && !ending,
    resume: renewing && (status === 'canceled' || (status === 'active' && ending)),
    pause:
      renewing && status === 'active' && !ending && subscription.payment_method.type === 'card',
    continue: renewing && status === 'paused',
  };
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
