import type { SubscriptionDetail } from '#shared/contracts/billing.ts';
import {
  type LifecycleActions,
  lifecycleActions as sharedLifecycleActions,
} from '#shared/subscription/lifecycle.ts';

// The membership's buttons follow shared/subscription/lifecycle.ts; its period line is
// shared/subscription/period-line.ts (the dashboard reads the same).

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
