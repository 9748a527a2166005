import {
  canBonusUpgrade,
  canReactivate,
  canUpgrade,
  hasMembership,
  type SubscriptionValue,
} from '#shared/subscription/actions.ts';
import type { AccessRule } from '../routes/route-meta.ts';
import type { RouteName } from '../routes/route-table.ts';

/** The current subscription as routing needs it (§3: "only present or absent matters"…). */
export interface SubscriptionState {
  current: SubscriptionValue | null;
  lastInvoiceFinalizing: boolean;
}

/** What a route-specific rule says: open, go to a named route, or not found. */
export type AccessVerdict =
  | { kind: 'allow' }
  | { kind: 'redirect'; name: RouteName }
  | { kind: 'notFound' }
  | { kind: 'resetValue' };

export interface AccessContext {
  subscription: SubscriptionState | undefined;
  hasResetValue: boolean;
}

const allow: AccessVerdict = { kind: 'allow' };
const to = (name: RouteName): AccessVerdict => ({ kind: 'redirect', name });
const notFound: AccessVerdict = { kind: 'notFound' };

function current({ subscription }: AccessContext): SubscriptionValue | null {
  return subscription?.current ?? null;
}

// §2 "Billing routes depend on the subscription" and the password-reset one-time value.
export const ACCESS_RULES: Record<AccessRule, (context: AccessContext) => AccessVerdict> = {
  'password.reset': (context) => (context.hasResetValue ? allow : to('password.forgot')),
  // A decoded, complete challenge reached this rule: keep it for the reset page.
  'password.forgotVerify': () => ({ kind: 'resetValue' }),
  'billing.membership': (context) => {
    const subscription = current(context);
    return subscription && hasMembership(subscription) ? allow : to('billing.order2');
  },
  'billing.upgrade': (context) => {
    const subscription = current(context);
    const finalizing = context.subscription?.lastInvoiceFinalizing ?? false;
    return subscription && canUpgrade(subscription, finalizing) ? allow : notFound;
  },
  'billing.reactivate': (context) => {
    const subscription = current(context);
    return subscription && canReactivate(subscription) ? allow : notFound;
  },
  'billing.bonusUpgrade': (context) => {
    const subscription = current(context);
    return subscription && canBonusUpgrade(subscription) ? allow : notFound;
  },
  'billing.order': (context) => (current(context) ? to('billing.membership2') : allow),
};
