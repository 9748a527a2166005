import type { SubscriptionDetail } from '../contracts/billing.ts';
import { SERVICE_IDS } from './actions.ts';

/** Which end (or renewal) date a subscription shows beside its status, and the date. */
export type PeriodLine =
  | { kind: 'renews' | 'ends' | 'ended' | 'access_until' | 'paused'; date: string }
  | { kind: 'none' };

/**
 * The date the membership page and the dashboard show beside a subscription's status: on
 * hold lasts to the grace end, an ended plan shows when it ended, a running one renews unless
 * it is one-time, set to cancel at the period end, or bonus days.
 */
export function periodLine(
  subscription: Pick<
    SubscriptionDetail,
    | 'status'
    | 'service_id'
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
      // Bonus days (service 5) are never charged: they end rather than renew.
      return at(
        s.cancel_at_period_end || s.onetime || s.service_id === SERVICE_IDS.bonus
          ? 'ends'
          : 'renews',
        s.current_period_end,
      );
  }
}
