import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeChallenge } from '#shared/challenge.ts';
import { FEATURES } from '#shared/features.ts';
import type { Role } from '#shared/roles.ts';
import type { SubscriptionState } from './access-rules.ts';
import { decide } from './decide.ts';
import type { Decision, GuardState, GuardUser } from './guard-types.ts';

const TOKEN = 'a'.repeat(43);

const customer: GuardUser = {
  role: 'USER',
  email: 'ann@example.com',
  email_tmp: null,
  activated: true,
  delete_at: null,
};
const unverified: GuardUser = { ...customer, activated: false };
const deactivated: GuardUser = { ...customer, delete_at: '2026-12-01T00:00:00Z' };
const admin: GuardUser = { ...customer, role: 'ADMIN', email: 'boss@example.com' };
const author: GuardUser = { ...customer, role: 'AUTHOR', email: 'pen@example.com' };

const none: SubscriptionState = { current: null, lastInvoiceFinalizing: false };
const sub = (status: string, service_id: number, onetime = false, finalizing = false) =>
  ({
    current: { status, service_id, onetime },
    lastInvoiceFinalizing: finalizing,
  }) as SubscriptionState;

const base: GuardState = {
  defaultLocale: 'en',
  locales: ['en', 'es', 'fr', 'nl'],
  features: FEATURES,
  user: null,
  subscription: none,
  accessPages: [],
  hasResetValue: false,
  isMainSite: false,
};

function go(url: string, state: Partial<GuardState> = {}): Decision {
  const { pathname, search } = new URL(url, 'http://localhost');
  return decide({ pathname, search }, { ...base, ...state });
}

const challenge = (value: object) => `challenge=${encodeChallenge(value)}`;

type Expected = [kind: Decision['kind'], rule: Decision['rule'], to?: string];
const summary = (decision: Decision): Expected =>
  decision.kind === 'allow'
    ? ['allow', 'none']
    : decision.kind === 'logout'
      ? ['logout', decision.rule, decision.retry]
      : [decision.kind, decision.rule, decision.to];

describe('route guard priorities (§2, first match wins)', () => {
  const cases: [string, string, Partial<GuardState>, Expected][] = [
    // 1. language
    ['a missing language is added', '/signin?x=1', {}, ['redirect', 1, '/en/signin?x=1']],
    ['/ goes to the default locale', '/', {}, ['redirect', 1, '/en']],
    ['a switched-off language is replaced', '/ru/signin', {}, ['redirect', 1, '/en/signin']],
    [
      'an unknown path without language is not found',
      '/xx/signin',
      {},
      ['notFound', 1, '/en/page-not-found'],
    ],
    [
      'the configured default is used',
      '/signup',
      { defaultLocale: 'fr' },
      ['redirect', 1, '/fr/signup'],
    ],
    // 2. referral
    [
      'a referral link goes to the public order page',
      '/en/r/abc',
      {},
      ['redirect', 2, '/en/order-v2'],
    ],
    ['a referral link without language works too', '/r/abc', {}, ['redirect', 1, '/en/r/abc']],
    [
      'a verified user joins through billing',
      '/es/r/abc',
      { user: customer },
      ['redirect', 2, '/es/billing/order-v2'],
    ],
    [
      'on the main site a referral link is just a page',
      '/en/r/abc',
      { isMainSite: true },
      ['allow', 'none'],
    ],
    // forwarding routes
    [
      '/account opens the profile',
      '/en/account',
      { user: customer },
      ['redirect', 'forward', '/en/account/profile'],
    ],
    [
      '/admin/servers opens countries',
      '/en/admin/servers',
      { user: admin },
      ['redirect', 'forward', '/en/admin/servers/countries'],
    ],
    // 3. empty meta, unknown path, feature off
    [
      'a route with empty meta is not found',
      '/en/admin/order/manage-plans/website',
      { user: admin },
      ['notFound', 3, '/en/page-not-found'],
    ],
    [
      'an unknown path is not found',
      '/en/nowhere/at/all',
      {},
      ['notFound', 3, '/en/page-not-found'],
    ],
    [
      'family sharing is gone when its flag is off',
      '/en/features/family-sharing',
      { user: customer, features: ['billing'] },
      ['notFound', 3, '/en/page-not-found'],
    ],
    // 4. challenge for someone else / forced logout
    [
      'a challenge for another address logs out and retries',
      `/en/email/verify?${challenge({ email: 'eve@example.com', token: TOKEN })}`,
      { user: unverified },
      ['logout', 4, `/en/email/verify?${challenge({ email: 'eve@example.com', token: TOKEN })}`],
    ],
    [
      'a force-logout challenge logs out',
      `/en/password/set?${challenge({ token: TOKEN, force_logout: true })}`,
      { user: customer },
      ['logout', 4, `/en/password/set?${challenge({ token: TOKEN, force_logout: true })}`],
    ],
    [
      'a temporary-address challenge compares email_tmp',
      `/en/account/email/change/verify?${challenge({ email: 'ann@example.com', token: TOKEN })}`,
      { user: { ...customer, email_tmp: 'new@example.com' } },
      [
        'logout',
        4,
        `/en/account/email/change/verify?${challenge({ email: 'ann@example.com', token: TOKEN })}`,
      ],
    ],
    // 5. challenge missing or broken
    [
      'a required challenge that is missing goes to the fallback',
      '/en/password/set',
      { user: customer },
      ['redirect', 5, '/en'],
    ],
    [
      'a broken challenge goes to the fallback',
      '/en/email/verify?challenge=%%%',
      { user: unverified },
      ['redirect', 5, '/en'],
    ],
    [
      'a challenge without its token is broken',
      `/en/familysharing/invite/verify?${challenge({ email: 'ann@example.com' })}`,
      {},
      ['redirect', 5, '/en'],
    ],
    [
      'forgot/verify without a challenge goes to forgot',
      '/en/password/forgot/verify',
      {},
      ['redirect', 5, '/en/password/forgot'],
    ],
    [
      'forgot/verify with an undecodable challenge goes home',
      '/en/password/forgot/verify?challenge=bad',
      {},
      ['redirect', 5, '/en'],
    ],
    // 6. already satisfied
    [
      'verify when already verified goes to the dashboard',
      '/en/email/verify',
      { user: customer },
      ['redirect', 6, '/en/dashboard'],
    ],
    [
      'reactivate when active goes to the admin dashboard for staff',
      '/en/reactivate',
      { user: admin },
      ['redirect', 6, '/en/admin/dashboard'],
    ],
    // 7. deactivated
    [
      'a deactivated user goes to reactivate',
      '/en/dashboard',
      { user: deactivated },
      ['redirect', 7, '/en/reactivate'],
    ],
    [
      'a deactivated user may reactivate',
      '/en/reactivate',
      { user: deactivated },
      ['allow', 'none'],
    ],
    // 8. unverified
    [
      'an unverified user goes to verification',
      '/en/account/security',
      { user: unverified },
      ['redirect', 8, '/en/email/verify'],
    ],
    ['an unverified user may verify', '/en/email/verify', { user: unverified }, ['allow', 'none']],
    // 9. not signed in
    [
      'a visitor goes to sign in with continue and path',
      '/en/account/profile?tab=2',
      {},
      ['redirect', 9, '/en/signin?tab=2&continue=account.profile&path=%2Fen%2Faccount%2Fprofile'],
    ],
    // 10. access check / visitor-only / one-time value
    [
      'a signed-in user on signin goes home',
      '/en/signin',
      { user: customer },
      ['redirect', 10, '/en'],
    ],
    [
      'an access-checked route outside the list goes to its fallback',
      '/en/order-received/thanks',
      { user: customer },
      ['redirect', 10, '/en/dashboard'],
    ],
    [
      'an access-checked route in the list opens',
      '/en/order-received/thanks',
      { user: customer, accessPages: ['order-received.thanks'] },
      ['allow', 'none'],
    ],
    [
      'reset without the one-time value goes to forgot',
      '/en/password/reset',
      {},
      ['redirect', 10, '/en/password/forgot'],
    ],
    [
      'reset with the one-time value opens',
      '/en/password/reset',
      { hasResetValue: true },
      ['allow', 'none'],
    ],
    [
      'reset for a signed-in user goes home',
      '/en/password/reset',
      { user: customer, hasResetValue: true },
      ['redirect', 10, '/en'],
    ],
    // 11. role
    [
      'a customer on an admin route is not found',
      '/en/admin/dashboard',
      { user: customer },
      ['notFound', 11, '/en/page-not-found'],
    ],
    [
      'an admin on a customer route is not found',
      '/en/dashboard',
      { user: admin },
      ['notFound', 11, '/en/page-not-found'],
    ],
    [
      'an author on an admin-only route is not found',
      '/en/admin/customers',
      { user: author },
      ['notFound', 11, '/en/page-not-found'],
    ],
    [
      'an author may edit posts',
      '/en/admin/blog/posts/edit/7',
      { user: author },
      ['allow', 'none'],
    ],
    // 12. order pages
    [
      'a verified user on /order goes to billing',
      '/en/order',
      { user: customer },
      ['redirect', 12, '/en/billing/order-v2'],
    ],
    [
      'an unverified subscriber on order-v2 goes to billing',
      '/en/order-v2',
      { user: unverified, subscription: sub('active', 1) },
      ['redirect', 12, '/en/billing/order-v2'],
    ],
    [
      'an unverified user without subscription may order',
      '/en/order-v2',
      { user: unverified },
      ['allow', 'none'],
    ],
    ['a visitor may order', '/en/order-v2', {}, ['allow', 'none']],
  ];

  it.each(cases)('%s (%s)', (_title, url, state, expected) => {
    expect(summary(go(url, state))).toEqual(expected);
  });
});

describe('billing rules (§2, §4)', () => {
  const cases: [string, string, SubscriptionState, Expected][] = [
    [
      'membership with a subscription opens',
      '/en/billing/membership-v2',
      sub('canceled', 1),
      ['allow', 'none'],
    ],
    [
      'membership without one goes to the order page',
      '/en/billing/membership-v2',
      none,
      ['redirect', 'billing', '/en/billing/order-v2'],
    ],
    [
      'upgrade of an active card plan opens',
      '/en/billing/upgrade-v2',
      sub('active', 1),
      ['allow', 'none'],
    ],
    [
      'upgrade while the last invoice finalises is not found',
      '/en/billing/upgrade-v2',
      sub('active', 1, false, true),
      ['notFound', 'billing', '/en/page-not-found'],
    ],
    [
      'upgrade of an expired plan is not found',
      '/en/billing/upgrade-v2',
      sub('expired', 1),
      ['notFound', 'billing', '/en/page-not-found'],
    ],
    [
      'reactivate of an expired plan opens',
      '/en/billing/reactivate-v2',
      sub('expired', 2),
      ['allow', 'none'],
    ],
    [
      'reactivate of an active plan is not found',
      '/en/billing/reactivate-v2',
      sub('active', 2),
      ['notFound', 'billing', '/en/page-not-found'],
    ],
    [
      'bonus upgrade of a bonus plan opens',
      '/en/billing/bonus-upgrade',
      sub('refunded', 5),
      ['allow', 'none'],
    ],
    [
      'bonus upgrade of a card plan is not found',
      '/en/billing/bonus-upgrade',
      sub('active', 1),
      ['notFound', 'billing', '/en/page-not-found'],
    ],
    [
      'the billing order page sends subscribers to membership',
      '/en/billing/order-v2',
      sub('active', 1),
      ['redirect', 'billing', '/en/billing/membership-v2'],
    ],
    [
      'the billing order page opens without a subscription',
      '/en/billing/order-v2',
      none,
      ['allow', 'none'],
    ],
  ];

  it.each(cases)('%s', (_title, url, subscription, expected) => {
    expect(summary(go(url, { user: customer, subscription }))).toEqual(expected);
  });

  it('keeps billing out of reach when the billing flag is off', () => {
    expect(summary(go('/en/billing/invoices', { user: customer, features: [] }))).toEqual([
      'notFound',
      3,
      '/en/page-not-found',
    ]);
  });
});

// Property: whatever user and route, the rule that decides is the first one, in the order
// of §2, whose condition holds. The conditions are restated here independently of decide.
describe('priority order holds when several rules match', () => {
  const ROUTE_SAMPLES = [
    '/en/dashboard',
    '/en/account/security',
    '/en/admin/customers',
    '/en/admin/blog/posts/overview',
    '/en/signin',
    '/en/reactivate',
    '/en/email/verify',
    '/en/order-received/thanks',
    '/en/order-v2',
    '/en/billing/invoices',
    '/en/password/reset',
  ] as const;

  const META: Record<
    (typeof ROUTE_SAMPLES)[number],
    {
      auth?: boolean;
      verified?: boolean;
      notDeactivated?: boolean;
      visitor?: boolean;
      access?: string;
      roles: Role[];
    }
  > = {
    '/en/dashboard': { auth: true, verified: true, notDeactivated: true, roles: ['USER'] },
    '/en/account/security': { auth: true, verified: true, notDeactivated: true, roles: ['USER'] },
    '/en/admin/customers': { auth: true, verified: true, notDeactivated: true, roles: ['ADMIN'] },
    '/en/admin/blog/posts/overview': {
      auth: true,
      verified: true,
      notDeactivated: true,
      roles: ['ADMIN', 'AUTHOR'],
    },
    '/en/signin': { visitor: true, roles: ['USER', 'ADMIN', 'AUTHOR', 'PUBLIC'] },
    '/en/reactivate': { auth: true, roles: ['USER', 'ADMIN', 'AUTHOR'] },
    '/en/email/verify': { auth: true, roles: ['USER', 'ADMIN', 'AUTHOR'] },
    '/en/order-received/thanks': { auth: true, access: 'order-received.thanks', roles: ['USER'] },
    '/en/order-v2': { notDeactivated: true, roles: ['USER', 'PUBLIC'] },
    '/en/billing/invoices': { auth: true, notDeactivated: true, roles: ['USER'] },
    '/en/password/reset': { visitor: true, roles: ['USER', 'ADMIN', 'AUTHOR', 'PUBLIC'] },
  };

  const userArb = fc.option(
    fc.record({
      role: fc.constantFrom<Role>('USER', 'ADMIN', 'AUTHOR'),
      email: fc.constant('ann@example.com'),
      email_tmp: fc.constant(null),
      activated: fc.boolean(),
      delete_at: fc.option(fc.constant('2026-12-01T00:00:00Z'), { nil: null }),
    }),
    { nil: null },
  );

  it('decides by the first matching condition', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ROUTE_SAMPLES),
        userArb,
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (url, user, inAccessList, subscribed, hasResetValue) => {
          const meta = META[url];
          const state: Partial<GuardState> = {
            user,
            accessPages: inAccessList && meta.access ? [meta.access] : [],
            subscription: subscribed ? sub('active', 1) : none,
            hasResetValue,
          };
          const role = user?.role ?? 'PUBLIC';
          const isReactivate = url === '/en/reactivate';
          const isVerify = url === '/en/email/verify';
          const conditions: [number, boolean][] = [
            [
              6,
              Boolean(user) &&
                ((isReactivate && !user?.delete_at) || (isVerify && Boolean(user?.activated))),
            ],
            [7, Boolean(meta.notDeactivated && user?.delete_at)],
            [8, Boolean(meta.verified && user && !user.activated)],
            [9, Boolean(meta.auth && !user)],
            [
              10,
              Boolean(
                (meta.access && !inAccessList) ||
                  (meta.visitor && user) ||
                  (url === '/en/password/reset' && !hasResetValue),
              ),
            ],
            [11, !meta.roles.includes(role)],
            [12, url === '/en/order-v2' && Boolean(user) && Boolean(user?.activated || subscribed)],
          ];
          const first = conditions.find(([, holds]) => holds);
          expect(go(url, state).rule).toBe(first ? first[0] : 'none');
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never lets a later rule win over the language rule', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ROUTE_SAMPLES), userArb, (url, user) => {
        const decision = go(url.replace('/en/', '/de/'), { user });
        expect(decision.rule).toBe(1);
      }),
    );
  });
});
