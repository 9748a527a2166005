import type { AuthUser } from '#shared/contracts/auth-user.ts';
import type { Feature } from '#shared/features.ts';
import type { Lang } from '#shared/locales.ts';
import type { AppRoute } from '../routes/route-table.ts';
import type { SubscriptionState } from './access-rules.ts';

export type GuardUser = Pick<AuthUser, 'role' | 'email' | 'email_tmp' | 'activated' | 'delete_at'>;

/** Everything the route decision reads; the router's root loader fills it in. */
export interface GuardState {
  defaultLocale: Lang;
  locales: readonly Lang[];
  features: readonly Feature[];
  user: GuardUser | null;
  /**
   * Undefined while not loaded: routes with `awaitSubscription` load it first, so it stays
   * undefined there only when that failed.
   */
  subscription: SubscriptionState | undefined;
  /** §3 access-pages list of the application store: the pages an accessCheck route allows. */
  accessPages: readonly string[];
  /** §2 the password-reset one-time value is in session storage. */
  hasResetValue: boolean;
  /** §2 priority 2: referral links are handled unless this is the marketing (main) site. */
  isMainSite: boolean;
}

export interface GuardRequest {
  pathname: string;
  /** The query string with its `?`, or ''. */
  search: string;
}

export type Effect =
  | { type: 'joinReferral'; token: string }
  | { type: 'storeResetValue'; challenge: string };

/** Which rule decided: a priority of §2 (1–12), a billing rule, or a forwarding route. */
export type RuleId = number | 'billing' | 'forward' | 'none';

export type Decision =
  | { kind: 'allow'; rule: 'none'; route: AppRoute; params: Record<string, string>; lang: Lang }
  | { kind: 'redirect'; rule: RuleId; to: string; effects?: Effect[] }
  | { kind: 'notFound'; rule: RuleId; to: string }
  | { kind: 'logout'; rule: RuleId; retry: string; emailChangeFailed: boolean }
  /** The deciding rule needs what could not be loaded; the page offers to try again. */
  | { kind: 'unavailable'; rule: RuleId; missing: 'subscription' };
