import type { Feature } from '#shared/features.ts';
import type { Permission } from '#shared/permissions.ts';
import type { Role } from '#shared/roles.ts';

/** Code-split areas (§2): each is one lazy chunk, so the public home loads no admin code. */
export type Area = 'public' | 'account' | 'billing' | 'admin';

/** §2 Page shell: the header has three types. */
export type HeaderType = 'app' | 'landing' | 'plain';

/**
 * §6 Challenge rules. A challenge is the signed value an e-mailed link carries
 * (`?challenge=…`, see shared/challenge.ts); a rule lists what it must hold.
 */
export type ChallengeCheck = 'email' | 'token' | 'tokenValid' | 'tempEmail';

export interface ChallengeRule {
  /** Without `required`, a route opens without a challenge but rejects a broken one. */
  required: boolean;
  checks: readonly ChallengeCheck[];
  /** Log a signed-in, not deactivated user out before the challenge is used (§6). */
  forceLogout?: boolean;
  /** Where a missing challenge goes, when that differs from a broken one (§2 forgot/verify). */
  missingFallback?: string;
}

/**
 * Route-specific access rules (guard priority 10 and the billing rules of §2). Each names a
 * function in app/guards/access-rules.ts.
 */
export type AccessRule =
  | 'password.reset'
  | 'password.forgotVerify'
  | 'billing.membership'
  | 'billing.upgrade'
  | 'billing.reactivate'
  | 'billing.bonusUpgrade'
  | 'billing.order';

export interface RouteMeta {
  roles: readonly Role[];
  /**
   * The named permission of shared/permissions.ts the route's screen needs; `roles` is then
   * that permission's roles, so the guard and the server's endpoints read one table.
   */
  permission?: Permission;
  onlyAuthenticated?: boolean;
  onlyVerified?: boolean;
  onlyNotDeactivated?: boolean;
  onlyNotLoggedIn?: boolean;
  /** Open only when the route's name is in the store's access-pages list (§3, §4 reactions). */
  accessCheck?: boolean;
  access?: AccessRule;
  challenge?: ChallengeRule;
  /** Route name to go to when access is refused (priorities 5 and 10); home by default. */
  fallback?: string;
  /** The current subscription is awaited before the route opens (§2 billing). */
  awaitSubscription?: boolean;
  /** A route whose feature flag is off does not exist (§1). */
  feature?: Feature;
}

export interface RouteDef<Name extends string = string> {
  name: Name;
  /** Path below `/{lang}/`, in React Router syntax (`admin/customers/:id`); '' is home. */
  path: string;
  /** `null` is the empty meta of priority 3: the route exists only as a name. */
  meta: RouteMeta | null;
  area: Area;
  header: HeaderType;
  /** A route that only forwards to another one (§2 "redirects to profile"). */
  redirect?: string;
}
