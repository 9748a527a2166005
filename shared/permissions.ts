import type { Role } from './roles.ts';

// §6 Named permissions: which staff roles may use each admin area. The app's route table
// and menus and the server's endpoint declarations read this one table, so a screen and
// its calls cannot disagree about who may use them.

const ADMIN: readonly Role[] = ['ADMIN'];
/** §6 "Admin and author are treated alike" where the author's list is not empty. */
const STAFF: readonly Role[] = ['ADMIN', 'AUTHOR'];

export const PERMISSIONS = {
  /** The admin dashboard (§2 admin.dashboard), where staff land. */
  dashboard: STAFF,
  /** A staff member's own account: profile, security, notifications (§2 /admin/account). */
  ownAccount: STAFF,
  /** Customers (§2 /admin/customers, §7 dashboard /users). */
  customers: ADMIN,
  /** Billing and commerce: products, plans, coupons, subscriptions, invoices, refunds. */
  commerce: ADMIN,
  /** Earnings and subscription statistics, analytics. */
  statistics: ADMIN,
  /** The audit log (§2 /admin/logs). */
  logs: ADMIN,
  /** Servers and countries. */
  servers: ADMIN,
  /** OAuth clients and providers. */
  oauth: ADMIN,
  /** Notification e-mail lists. */
  notificationLists: ADMIN,
  /** Blog, help center, FAQ, pages, static pages and SEO. */
  content: STAFF,
  /** Content settings: whether authors may publish (issue 22). */
  contentSettings: ADMIN,
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function hasPermission(role: Role | undefined, permission: Permission): boolean {
  return role !== undefined && PERMISSIONS[permission].includes(role);
}
