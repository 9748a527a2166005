import { accountActions, type SubscriptionValue } from '#shared/subscription/actions.ts';
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
