import { z } from 'zod';
import { ENTITLEMENT_SOURCES } from '../billing/billing-values.ts';
import { endpoint } from './endpoint.ts';

// §2 /dashboard, where every customer lands: what no other call answers. The subscription
// comes from billing's calls, referrals and family from theirs; this adds VPN access as the
// entitlement ledger has it (DESIGN "the one answer") and the signed-in devices count.

const isoDate = z.iso.datetime({ offset: true });

/** One reason the customer may use the VPN now. */
export const accessSource = z.object({
  source: z.enum(ENTITLEMENT_SOURCES),
  /** Null: for as long as the source lasts (a family seat while the owner's plan runs). */
  until: isoDate.nullable(),
  /** A family seat: the owner sharing it, by name (or e-mail address without one). */
  from: z.string().optional(),
});
export type AccessSource = z.infer<typeof accessSource>;

export const dashboardResponse = z
  .object({
    access: z.object({
      active: z.boolean(),
      /** The latest end of the live sources; null while one of them has no end. */
      until: isoDate.nullable(),
      /** Own plan first, then family, bonus days and staff grants. */
      sources: z.array(accessSource),
    }),
    /** Browsers signed in to the account now (§4 Devices). */
    devices_count: z.number().int(),
  })
  .meta({ id: 'Dashboard' });
export type DashboardResponse = z.infer<typeof dashboardResponse>;

export const dashboardEndpoints = {
  view: endpoint({
    method: 'GET',
    base: 'account',
    path: '/dashboard',
    // As the customer's other calls: staff are answered about their own account (they land
    // on the admin dashboard and have no ledger rows of their own).
    access: 'active',
    tag: 'dashboard',
    summary: "The customer's VPN access from the entitlement ledger and signed-in devices",
    response: dashboardResponse,
  }),
} as const;

/** React-query key of the dashboard's own call; live events refetch it. */
export const DASHBOARD_QUERY_KEY = ['dashboard', 'view'] as const;
