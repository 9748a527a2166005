import type { SubscriptionDetail } from '#shared/contracts/billing.ts';
import {
  accountActions,
  SERVICE_IDS,
  type SubscriptionValue,
} from '#shared/subscription/actions.ts';
import type { RouteName } from '../../routes/route-table.ts';

/** The one thing the subscription card offers first, and where it leads. */
export type NextAction =
  | 'order'
  | 'fix_payment_method'
  | 'reactivate'
  | 'bonus_upgrade'
  | 'upgrade';

export const NEXT_ACTION_ROUTES: Record<NextAction, RouteName> = {
  order: 'billing.order2',
  fix_payment_method: 'billing.fix-payment-method',
  reactivate: 'billing.reactivate2',
  bonus_upgrade: 'billing.bonus-upgrade',
  upgrade: 'billing.upgrade2',
};

/**
 * §4 the account actions, as the membership page offers them, in order of need: nothing to
 * use yet (order), a payment to fix, an ended plan to bring back, then more of a running one.
 * None when the plan runs and offers no upgrade (a one-time card plan, a paused crypto one).
 */
export function nextAction(
  subscription: SubscriptionValue | null | undefined,
  lastInvoiceFinalizing: boolean,
): NextAction | null {
  const offered = accountActions(subscription, lastInvoiceFinalizing);
  if (!offered.membership) return 'order';
  if (offered.fixPaymentMethod) return 'fix_payment_method';
  if (offered.reactivate) return 'reactivate';
  if (offered.bonusUpgrade) return 'bonus_upgrade';
  if (offered.upgrade) return 'upgrade';
  return null;
}

/** Which date the card shows beside the status, and what it means. */
export type PlanDate =
  | { kind: 'renews' | 'ends' | 'ended' | 'access_until' | 'paused'; date: string }
  | { kind: 'none' };

type Dates = Pick<
  SubscriptionDetail,
  | 'status'
  | 'service_id'
  | 'onetime'
  | 'cancel_at_period_end'
  | 'current_period_end'
  | 'grace_until'
  | 'ended_at'
>;

/**
 * The renewal or end date, read as the membership page reads it: on hold lasts to the grace
 * end, an ended plan shows when it ended, a running one renews unless it is one-time or set
 * to cancel at the period end. Bonus days (service 5) are never charged, so they end rather
 * than renew.
 */
export function planDate(s: Dates): PlanDate {
  const at = (kind: Exclude<PlanDate['kind'], 'none'>, date: string | null): PlanDate =>
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
      return at(
        s.cancel_at_period_end || s.onetime || s.service_id === SERVICE_IDS.bonus
          ? 'ends'
          : 'renews',
        s.current_period_end,
      );
  }
}
