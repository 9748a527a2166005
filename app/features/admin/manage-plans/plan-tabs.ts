import type { ServiceId } from '#shared/subscription/actions.ts';
import type { RouteName } from '../../../routes/route-table.ts';

/** §2 /admin/order/manage-plans/{…}: the lists staff put in order, one per route. */
export type PlanTabKey = 'stripe' | 'paypal' | 'apple' | 'cryptomus' | 'addons' | 'merged-addons';

export interface PlanTab {
  key: PlanTabKey;
  route: RouteName;
  /** i18n key of the tab. */
  label: string;
  /** The services it shows, one group each, in this order. */
  services: readonly ServiceId[];
  kind: 'plans' | 'addons';
  /** Only the plans that bundle includable addons. */
  bundlesOnly: boolean;
  /**
   * One "most selected" per service and currency: offered only where the list holds all of
   * a service's plans, so the choice cannot leave another plan, unseen, marked as well.
   */
  mostSelected: boolean;
}

// §9 service ids. The addons of every service, grouped by service; `merged-addons` are the
// bundles: plans whose includable_product_id is not empty (addons merged into the plan).
const ALL_SERVICES: readonly ServiceId[] = [1, 2, 4, 6];

export const PLAN_TABS: readonly PlanTab[] = [
  gateway('stripe', 1),
  gateway('paypal', 2),
  gateway('apple', 4),
  gateway('cryptomus', 6),
  {
    key: 'addons',
    route: 'admin.order.manage-plans.addons',
    label: 'staff_plans.tabs.addons',
    services: ALL_SERVICES,
    kind: 'addons',
    bundlesOnly: false,
    mostSelected: false,
  },
  {
    key: 'merged-addons',
    route: 'admin.order.manage-plans.merged-addons',
    label: 'staff_plans.tabs.merged_addons',
    services: ALL_SERVICES,
    kind: 'plans',
    bundlesOnly: true,
    mostSelected: false,
  },
];

function gateway(key: 'stripe' | 'paypal' | 'apple' | 'cryptomus', serviceId: ServiceId): PlanTab {
  return {
    key,
    route: `admin.order.manage-plans.${key}`,
    label: `staff_plans.tabs.${key}`,
    services: [serviceId],
    kind: 'plans',
    bundlesOnly: false,
    mostSelected: true,
  };
}

export function planTab(key: PlanTabKey): PlanTab {
  const tab = PLAN_TABS.find((item) => item.key === key);
  if (!tab) throw new Error(`no plan tab ${key}`);
  return tab;
}

/** i18n key naming a service in group headings. */
export const SERVICE_LABELS: Record<ServiceId, string> = {
  1: 'staff_plans.services.1',
  2: 'staff_plans.services.2',
  4: 'staff_plans.services.4',
  5: 'staff_plans.services.5',
  6: 'staff_plans.services.6',
};
