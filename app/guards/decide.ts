import {
  CHALLENGE_PARAM,
  type Challenge,
  decodeChallenge,
  TOKEN_PATTERN,
} from '#shared/challenge.ts';
import { isLang, type Lang } from '#shared/locales.ts';
import { isStaff, type Role } from '#shared/roles.ts';
import { matchRoute, pathFor } from '../routes/match-route.ts';
import type { RouteMeta } from '../routes/route-meta.ts';
import type { AppRoute, RouteName } from '../routes/route-table.ts';
import { ACCESS_RULES, type AccessVerdict } from './access-rules.ts';
import type { Decision, GuardRequest, GuardState, GuardUser, RuleId } from './guard-types.ts';

// §2 "Route guard priorities (first match wins)", then the billing rules, as one pure
// function of the requested URL and what the browser knows. The server still checks every
// request; this decides only what the browser shows.

export function dashboardFor(role: Role | undefined): RouteName {
  return isStaff(role) ? 'admin.dashboard' : 'dashboard';
}

interface Context {
  request: GuardRequest;
  state: GuardState;
  lang: Lang;
  route: AppRoute;
  meta: RouteMeta;
  params: Record<string, string>;
  query: URLSearchParams;
  user: GuardUser | null;
  challenge: { raw: string; value: Challenge | undefined } | undefined;
}

function redirect(rule: RuleId, to: string): Decision {
  return { kind: 'redirect', rule, to };
}

function notFound(rule: RuleId, lang: Lang): Decision {
  return { kind: 'notFound', rule, to: pathFor('page-not-found', lang) };
}

// The table's fallbacks are route names: route-table.ts checks that at compile time.
function fallbackPath({ meta, lang }: Context): string {
  return pathFor((meta.fallback ?? 'home') as RouteName, lang);
}

// A first segment shaped like a language tag (`de`, `pt-BR`). No first segment of the route
// table has this shape (a test checks), so such a segment can only be a language.
const LANGUAGE_TAG = /^[a-z]{2}(-[a-z]{2,4})?$/i;

/** True for a first path segment that names a language, ours or not. */
export function looksLikeLanguage(segment: string): boolean {
  return LANGUAGE_TAG.test(segment);
}

/** Priority 1: the path must start with a switched-on language. */
function checkLanguage(request: GuardRequest, state: GuardState): Decision | Lang {
  const [, first = '', ...rest] = request.pathname.split('/');
  if (isLang(first) && state.locales.includes(first)) return first;
  // A language we do not serve (one we ship but switched off, or any other) is replaced by
  // the default; anything else is kept as the start of the path, the default put in front.
  const below = (looksLikeLanguage(first) ? rest : [first, ...rest]).join('/');
  const lang = state.defaultLocale;
  if (!matchRoute(below)) return notFound(1, lang);
  const path = below ? `/${lang}/${below}` : `/${lang}`;
  return redirect(1, `${path}${request.search}`);
}

function failsChallenge(context: Context): 'missing' | 'broken' | undefined {
  const rule = context.meta.challenge;
  if (!rule) return undefined;
  if (!context.challenge) return rule.required ? 'missing' : undefined;
  const value = context.challenge.value;
  if (!value) return 'broken';
  for (const check of rule.checks) {
    if (check === 'email' && !value.email) return 'broken';
    if (check === 'token' && !value.token) return 'broken';
    if (check === 'tokenValid' && !TOKEN_PATTERN.test(value.token ?? '')) return 'broken';
  }
  return undefined;
}

type Rule = (context: Context) => Decision | undefined;

/** Priorities 4 to 12, and the billing rules after them, in order. */
const RULES: readonly Rule[] = [
  // 4. A challenge meant for someone else, or one that forces a logout.
  (context) => {
    const { meta, user, challenge } = context;
    if (!meta.challenge || !user || !challenge?.value) return undefined;
    const temporary = meta.challenge.checks.includes('tempEmail');
    const expected = temporary ? user.email_tmp : user.email;
    const sent = challenge.value.email;
    const mismatch = sent !== undefined && sent.toLowerCase() !== expected?.toLowerCase();
    const forced =
      (challenge.value.force_logout === true || meta.challenge.forceLogout === true) &&
      !user.delete_at;
    if (!mismatch && !forced) return undefined;
    const retry = `${context.request.pathname}${context.request.search}`;
    return { kind: 'logout', rule: 4, retry, emailChangeFailed: temporary && mismatch };
  },
  // 5. A challenge that is required but missing, or present but broken.
  (context) => {
    const failure = failsChallenge(context);
    if (!failure) return undefined;
    const missing = failure === 'missing' && context.meta.challenge?.missingFallback;
    return redirect(
      5,
      missing ? pathFor(missing as RouteName, context.lang) : fallbackPath(context),
    );
  },
  // 6. Reactivation or e-mail verification that is already done.
  ({ route, user, lang }) => {
    if (!user) return undefined;
    const reactivated = route.name.startsWith('reactivate') && !user.delete_at;
    const verified = route.name === 'email.verify' && user.activated;
    if (!reactivated && !verified) return undefined;
    return redirect(6, pathFor(dashboardFor(user.role), lang));
  },
  // 7. Deactivated users may only reactivate.
  ({ meta, user, lang }) =>
    meta.onlyNotDeactivated && user?.delete_at
      ? redirect(7, pathFor('reactivate', lang))
      : undefined,
  // 8. Verified-only routes send unverified users to verification.
  ({ meta, user, lang }) =>
    meta.onlyVerified && user && !user.activated
      ? redirect(8, pathFor('email.verify', lang))
      : undefined,
  // 9. Signed-in routes send visitors to sign in, remembering where they were going.
  ({ meta, user, lang, route, request, query }) => {
    if (!meta.onlyAuthenticated || user) return undefined;
    const next = new URLSearchParams(query);
    next.set('continue', route.name);
    next.set('path', request.pathname);
    return redirect(9, `${pathFor('signin', lang)}?${next.toString()}`);
  },
  // 10. Access-checked routes, visitor-only routes, and the password one-time value.
  (context) => {
    const { meta, route, user, state, lang } = context;
    const refused =
      (meta.accessCheck && !state.accessPages.includes(route.name)) ||
      (meta.onlyNotLoggedIn && user);
    if (refused) return redirect(10, fallbackPath(context));
    if (!meta.access?.startsWith('password.')) return undefined;
    const verdict = ACCESS_RULES[meta.access](state);
    if (verdict.kind === 'resetValue' && context.challenge) {
      return {
        kind: 'redirect',
        rule: 10,
        to: pathFor('password.reset', lang),
        effects: [{ type: 'storeResetValue', challenge: context.challenge.raw }],
      };
    }
    return fromVerdict(10, verdict, lang);
  },
  // 11. A role the route does not admit.
  ({ meta, user, lang }) =>
    meta.roles.includes(user?.role ?? 'PUBLIC') ? undefined : notFound(11, lang),
  // 12. The public order page is for visitors; customers order inside billing.
  ({ route, user, state, lang }) => {
    if ((route.name !== 'order' && route.name !== 'order2') || !user) return undefined;
    if (user.activated) return redirect(12, pathFor('billing.order2', lang));
    if (!state.subscription) return subscriptionUnknown(12);
    return state.subscription.current ? redirect(12, pathFor('billing.order2', lang)) : undefined;
  },
  // Billing: which billing screens the current subscription opens.
  ({ meta, state, lang }) => {
    if (!meta.access?.startsWith('billing.')) return undefined;
    if (!state.subscription) return subscriptionUnknown('billing');
    return fromVerdict('billing', ACCESS_RULES[meta.access](state), lang);
  },
];

// A rule that reads the subscription cannot decide without it (its fetch failed): guessing
// "none" would send a subscriber to the order page or to page-not-found.
function subscriptionUnknown(rule: RuleId): Decision {
  return { kind: 'unavailable', rule, missing: 'subscription' };
}

function fromVerdict(rule: RuleId, verdict: AccessVerdict, lang: Lang): Decision | undefined {
  if (verdict.kind === 'redirect') return redirect(rule, pathFor(verdict.name, lang));
  if (verdict.kind === 'notFound') return notFound(rule, lang);
  return undefined;
}

export function decide(request: GuardRequest, state: GuardState): Decision {
  const lang = checkLanguage(request, state);
  if (typeof lang !== 'string') return lang;

  const below = request.pathname.split('/').slice(2).join('/');
  const match = matchRoute(below);
  const query = new URLSearchParams(request.search);
  const user = state.user;

  // 2. A referral link leads to the order page and joins the referral program.
  if (match?.route.name === 'referral' && !state.isMainSite) {
    const target = user?.activated ? 'billing.order2' : 'order2';
    return {
      kind: 'redirect',
      rule: 2,
      to: pathFor(target, lang),
      effects: [{ type: 'joinReferral', token: match.params.id ?? '' }],
    };
  }

  if (match?.route.redirect) {
    return redirect(
      'forward',
      `${pathFor(match.route.redirect, lang, match.params)}${request.search}`,
    );
  }

  // 3. An unknown path, a route with empty meta, or one whose feature is switched off.
  const meta = match?.route.meta;
  if (!match || !meta || (meta.feature && !state.features.includes(meta.feature))) {
    return notFound(3, lang);
  }

  const raw = query.get(CHALLENGE_PARAM);
  const context: Context = {
    request,
    state,
    lang,
    route: match.route,
    meta,
    params: match.params,
    query,
    user,
    challenge: raw === null ? undefined : { raw, value: decodeChallenge(raw) },
  };
  for (const rule of RULES) {
    const decision = rule(context);
    if (decision) return decision;
  }
  return { kind: 'allow', rule: 'none', route: match.route, params: match.params, lang };
}
