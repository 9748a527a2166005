// §6 Roles. PUBLIC is the role of a visitor who is not signed in; it is never stored on a
// user but is used by route meta and menus. VPN_SERVER is the machine role of VPN nodes.
export const ROLES = ['USER', 'ADMIN', 'PUBLIC', 'VPN_SERVER', 'AUTHOR'] as const;
export type Role = (typeof ROLES)[number];

/** Admin and author are treated alike for routing and land on the admin dashboard (§6). */
export const STAFF_ROLES: readonly Role[] = ['ADMIN', 'AUTHOR'];

export function isStaff(role: Role | undefined): boolean {
  return role !== undefined && STAFF_ROLES.includes(role);
}
