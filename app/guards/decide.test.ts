import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Challenge, encodeChallenge } from '#shared/challenge.ts';
import { FEATURES, type Feature } from '#shared/features.ts';
import type { Role } from '#shared/roles.ts';
import {
  canBonusUpgrade,
  canReactivate,
  canUpgrade,
  hasMembership,
  SERVICE_ID_LIST,
  SUBSCRIPTION_STATUSES,
} from '#shared/subscription/actions.ts';
import { ROUTES } from '../routes/route-table.ts';
import type { SubscriptionState } from './access-rules.ts';
import { decide, looksLikeLanguage } from './decide.ts';
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
      : decision.kind === 'unavailable'
        ? ['unavailable', decision.rule, decision.missing]
        : [decision.kind, decision.rule, decision.to];

describe('route guard priorities (§2, first match wins)', () => {
  const cases: [string, string, Partial<GuardState>, Expected][] = [
    // 1. language
    ['a missing language is added', '/signin?x=1', {}, ['redirect', 1, '/en/signin?x=1']],
    ['/ goes to the default locale', '/', {}, ['redirect', 1, '/en']],
    ['a switched-off language is replaced', '/ru/signin', {}, ['redirect', 1, '/en/signin']],
    [
      'an unsupported language is replaced, keeping path and query',
      '/de/signin?x=1',
      {},
      ['redirect', 1, '/en/signin?x=1'],
    ],
    [
      'a language with a region is a language too',
      '/pt-BR/account',
      {},
      ['redirect', 1, '/en/account'],
    ],
    ['a language tag in capitals is read as one', '/EN/signup', {}, ['redirect', 1, '/en/signup']],
    ['an unsupported language alone goes home', '/de', {}, ['redirect', 1, '/en']],
    [
      // It may be a page of the site (issue 23): the server answers it, or its 404.
      'an unsupported language before a page address keeps it under the default one',
      '/de/nowhere',
      {},
      ['redirect', 1, '/en/nowhere'],
    ],
    [
      'an unsupported language before an unknown path is not found',
      '/de/nowhere/else',
      {},
      ['notFound', 1, '/en/page-not-found'],
    ],
    [
      'a segment that is no language tag stays part of the path',
      '/xyz/signin',
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
    [
      'customers are gone when the users flag is off',
      '/en/admin/customers/7',
      { user: admin, features: ['logging'] },
      ['notFound', 3, '/en/page-not-found'],
    ],
    [
      'the audit log is gone when the logging flag is off',
      '/en/admin/logs/overview',
      { user: admin, features: ['users'] },
      ['notFound', 3, '/en/page-not-found'],
    ],
    [
      'sign-up is gone when the auth flag is off',
      '/en/signup',
      { features: ['billing'] },
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
      '/en/reactivate-account',
      { user: deactivated },
      ['redirect', 10, '/en'],
    ],
    [
      'an access-checked route in the list opens',
      '/en/reactivate-account',
      { user: deactivated, accessPages: ['reactivate-account'] },
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

describe('a subscription that could not be loaded', () => {
  it('is awaited by every route whose rule reads it, so only a failed fetch leaves it out', () => {
    const readers = ROUTES.filter(
      (route) =>
        route.meta?.access?.startsWith('billing.') ||
        route.name === 'order' ||
        route.name === 'order2',
    );
    expect(readers.length).toBeGreaterThan(5);
    for (const route of readers) expect(route.meta?.awaitSubscription, route.name).toBe(true);
  });

  it.each([
    ['/en/billing/membership-v2', { user: customer }],
    ['/en/billing/upgrade-v2', { user: customer }],
    ['/en/billing/order-v2', { user: customer }],
    ['/en/order-v2', { user: unverified }],
  ] as const)('leaves %s undecided rather than guess "none"', (url, state) => {
    const decision = go(url, { ...state, subscription: undefined });
    expect(decision).toMatchObject({ kind: 'unavailable', missing: 'subscription' });
  });

  it.each([
    ['/en', { user: customer }, ['allow', 'none']],
    ['/en/order-v2', { user: customer }, ['redirect', 12, '/en/billing/order-v2']],
    ['/en/billing/invoices', { user: customer }, ['allow', 'none']],
    ['/en/billing/membership-v2', { user: deactivated }, ['redirect', 7, '/en/reactivate']],
    ['/en/billing/upgrade-v2', {}, ['redirect', 9, expect.stringMatching(/^\/en\/signin\?/)]],
  ] as const)('does not stop %s where no rule needs it', (url, state, expected) => {
    expect(summary(go(url, { ...state, subscription: undefined }))).toEqual(expected);
  });
});

describe('language segments (priority 1)', () => {
  it('no first segment of the route table looks like a language', () => {
    const firsts = new Set(ROUTES.map((route) => route.path.split('/')[0] ?? ''));
    expect([...firsts].filter((segment) => segment && looksLikeLanguage(segment))).toEqual([]);
  });

  it('reads our languages and other tags as languages, and route segments as paths', () => {
    for (const tag of ['en', 'de', 'pt-BR', 'zh-Hant', 'EN'])
      expect(looksLikeLanguage(tag)).toBe(true);
    for (const word of ['r', 'xyz', 'signin', 'en-', 'e1', 'pt-B']) {
      expect(looksLikeLanguage(word)).toBe(false);
    }
  });
});

// Property: whatever user, route, challenge, subscription and flags, the rule that decides
// is the first one, in the order of §2, whose condition holds. The conditions are restated
// here from the spec and the route table, independently of decide.
describe('priority order holds when several rules match', () => {
  interface Sample {
    path: string;
    name: string;
    roles: readonly Role[];
    auth?: boolean;
    verified?: boolean;
    notDeactivated?: boolean;
    visitor?: boolean;
    accessCheck?: boolean;
    access?: string;
    feature?: Feature;
    challenge?: { required: boolean; checks: readonly string[] };
  }
  const EVERYONE: Role[] = ['USER', 'ADMIN', 'AUTHOR', 'PUBLIC'];
  const SIGNED_IN: Role[] = ['USER', 'ADMIN', 'AUTHOR'];
  const customerOnly = {
    roles: ['USER'] as Role[],
    auth: true,
    verified: true,
    notDeactivated: true,
  };
  const billingMeta = {
    roles: ['USER'] as Role[],
    auth: true,
    notDeactivated: true,
    feature: 'billing' as const,
  };
  const fullCheck = ['email', 'token', 'tokenValid'];

  const SAMPLES: Sample[] = [
    { path: '', name: 'home', roles: EVERYONE },
    { path: 'r/abc', name: 'referral', roles: EVERYONE },
    { path: 'dashboard', name: 'dashboard', ...customerOnly },
    { path: 'download', name: 'download', ...customerOnly },
    { path: 'account/security', name: 'account.security', ...customerOnly },
    {
      path: 'features/family-sharing',
      name: 'features.family-sharing',
      ...customerOnly,
      feature: 'family_sharing',
    },
    {
      path: 'account/email/change/verify',
      name: 'account.email.change.verify',
      ...customerOnly,
      challenge: { required: true, checks: [...fullCheck, 'tempEmail'] },
    },
    {
      path: 'admin/customers',
      name: 'admin.customers',
      ...customerOnly,
      roles: ['ADMIN'],
      feature: 'users',
    },
    {
      path: 'admin/blog/posts/overview',
      name: 'admin.blog.posts.overview',
      ...customerOnly,
      roles: ['ADMIN', 'AUTHOR'],
    },
    { path: 'signin', name: 'signin', roles: EVERYONE, visitor: true },
    {
      path: 'password/reset',
      name: 'password.reset',
      roles: EVERYONE,
      visitor: true,
      access: 'password.reset',
    },
    {
      path: 'password/forgot/verify',
      name: 'password.forgot.verify',
      roles: EVERYONE,
      visitor: true,
      access: 'password.forgotVerify',
      challenge: { required: true, checks: ['email', 'token'] },
    },
    {
      path: 'familysharing/invite/verify',
      name: 'familysharing.invite.verify',
      roles: EVERYONE,
      feature: 'family_sharing',
      challenge: { required: true, checks: fullCheck },
    },
    {
      path: 'email/verify',
      name: 'email.verify',
      roles: SIGNED_IN,
      auth: true,
      challenge: { required: false, checks: fullCheck },
    },
    {
      path: 'password/set',
      name: 'password.set',
      roles: SIGNED_IN,
      auth: true,
      challenge: { required: true, checks: fullCheck },
    },
    { path: 'reactivate', name: 'reactivate', roles: SIGNED_IN, auth: true },
    {
      path: 'reactivate-account',
      name: 'reactivate-account',
      roles: SIGNED_IN,
      auth: true,
      accessCheck: true,
    },
    {
      path: 'order-received/thanks',
      name: 'order-received.thanks',
      roles: ['USER'],
      auth: true,
    },
    { path: 'order-v2', name: 'order2', roles: ['USER', 'PUBLIC'], notDeactivated: true },
    { path: 'order', name: 'order', roles: ['USER', 'PUBLIC'], notDeactivated: true },
    { path: 'billing/invoices', name: 'billing.invoices', ...billingMeta },
    {
      path: 'billing/membership-v2',
      name: 'billing.membership2',
      ...billingMeta,
      access: 'billing.membership',
    },
    {
      path: 'billing/upgrade-v2',
      name: 'billing.upgrade2',
      ...billingMeta,
      access: 'billing.upgrade',
    },
    {
      path: 'billing/reactivate-v2',
      name: 'billing.reactivate2',
      ...billingMeta,
      access: 'billing.reactivate',
    },
    {
      path: 'billing/bonus-upgrade',
      name: 'billing.bonus-upgrade',
      ...billingMeta,
      access: 'billing.bonusUpgrade',
    },
    { path: 'billing/order-v2', name: 'billing.order2', ...billingMeta, access: 'billing.order' },
  ];

  // What the link's challenge holds; `broken` is not decodable at all.
  type ChallengeSample = 'none' | 'broken' | Challenge;
  const challengeArb = fc.oneof(
    fc.constant<ChallengeSample>('none'),
    fc.constant<ChallengeSample>('broken'),
    fc.record(
      {
        email: fc.constantFrom(
          'ann@example.com',
          'ANN@example.com',
          'new@example.com',
          'eve@example.com',
        ),
        token: fc.constantFrom(TOKEN, 'short'),
        force_logout: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
  );

  const userArb = fc.option(
    fc.record({
      role: fc.constantFrom<Role>('USER', 'ADMIN', 'AUTHOR'),
      email: fc.constant('ann@example.com'),
      email_tmp: fc.constantFrom(null, 'new@example.com'),
      activated: fc.boolean(),
      delete_at: fc.option(fc.constant('2026-12-01T00:00:00Z'), { nil: null }),
    }),
    { nil: null },
  );

  const subscriptionArb = fc.option(
    fc.record({
      current: fc.option(
        fc.record({
          status: fc.constantFrom(...SUBSCRIPTION_STATUSES),
          service_id: fc.constantFrom(...SERVICE_ID_LIST),
          onetime: fc.boolean(),
        }),
        { nil: null },
      ),
      lastInvoiceFinalizing: fc.boolean(),
    }),
    { nil: undefined },
  );

  const featuresArb = fc.subarray<Feature>(['billing', 'family_sharing', 'users']);

  /** Whether a billing rule refuses (or redirects) for this subscription. */
  function billingRuleFires(access: string, state: SubscriptionState): boolean {
    const current = state.current;
    if (access === 'billing.membership') return !hasMembership(current);
    if (access === 'billing.upgrade') return !canUpgrade(current, state.lastInvoiceFinalizing);
    if (access === 'billing.reactivate') return !canReactivate(current);
    if (access === 'billing.bonusUpgrade') return !canBonusUpgrade(current);
    return current !== null;
  }

  function expectedRule(
    sample: Sample,
    user: GuardUser | null,
    challenge: ChallengeSample,
    state: GuardState,
  ): [Decision['kind'] | 'decided', Decision['rule']] {
    const role = user?.role ?? 'PUBLIC';
    const decoded = typeof challenge === 'object' ? challenge : undefined;
    const rule = sample.challenge;
    const tempEmail = rule?.checks.includes('tempEmail');
    const expectedEmail = tempEmail ? user?.email_tmp : user?.email;
    const mismatch =
      decoded?.email !== undefined && decoded.email.toLowerCase() !== expectedEmail?.toLowerCase();
    const broken =
      challenge === 'broken' ||
      (decoded !== undefined &&
        ((rule?.checks.includes('email') && !decoded.email) ||
          (rule?.checks.includes('token') && !decoded.token) ||
          (rule?.checks.includes('tokenValid') && decoded.token !== TOKEN)));
    const subscription = state.subscription;
    const conditions: [Decision['kind'] | 'decided', Decision['rule'], boolean][] = [
      ['decided', 2, sample.name === 'referral' && !state.isMainSite],
      ['decided', 3, Boolean(sample.feature && !state.features.includes(sample.feature))],
      [
        'decided',
        4,
        Boolean(rule && user && decoded && (mismatch || (decoded.force_logout && !user.delete_at))),
      ],
      ['decided', 5, Boolean(rule && (challenge === 'none' ? rule.required : broken))],
      [
        'decided',
        6,
        Boolean(user) &&
          ((sample.name.startsWith('reactivate') && !user?.delete_at) ||
            (sample.name === 'email.verify' && Boolean(user?.activated))),
      ],
      ['decided', 7, Boolean(sample.notDeactivated && user?.delete_at)],
      ['decided', 8, Boolean(sample.verified && user && !user.activated)],
      ['decided', 9, Boolean(sample.auth && !user)],
      [
        'decided',
        10,
        Boolean(
          (sample.accessCheck && !state.accessPages.includes(sample.name)) ||
            (sample.visitor && user) ||
            (sample.access === 'password.reset' && !state.hasResetValue) ||
            sample.access === 'password.forgotVerify',
        ),
      ],
      ['decided', 11, !sample.roles.includes(role)],
    ];
    const first = conditions.find(([, , holds]) => holds);
    if (first) return [first[0], first[1]];
    if ((sample.name === 'order' || sample.name === 'order2') && user) {
      if (user.activated) return ['decided', 12];
      if (!subscription) return ['unavailable', 12];
      if (subscription.current) return ['decided', 12];
    }
    if (sample.access?.startsWith('billing.')) {
      if (!subscription) return ['unavailable', 'billing'];
      if (billingRuleFires(sample.access, subscription)) return ['decided', 'billing'];
    }
    return ['allow', 'none'];
  }

  it('decides by the first matching condition, priorities 2 to 12 and billing together', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SAMPLES),
        userArb,
        challengeArb,
        subscriptionArb,
        featuresArb,
        fc.record({
          inAccessList: fc.boolean(),
          hasResetValue: fc.boolean(),
          isMainSite: fc.boolean(),
        }),
        (sample, user, challengeValue, subscription, features, flags) => {
          const state: GuardState = {
            ...base,
            user,
            subscription,
            features,
            accessPages: flags.inAccessList ? [sample.name] : [],
            hasResetValue: flags.hasResetValue,
            isMainSite: flags.isMainSite,
          };
          const query =
            challengeValue === 'none'
              ? ''
              : challengeValue === 'broken'
                ? '?challenge=%%%'
                : `?${challenge(challengeValue)}`;
          const url = `/en${sample.path ? `/${sample.path}` : ''}${query}`;
          const decision = go(url, state);
          const [kind, rule] = expectedRule(sample, user, challengeValue, state);
          expect(decision.rule).toBe(rule);
          if (kind === 'decided')
            expect(['redirect', 'notFound', 'logout']).toContain(decision.kind);
          else expect(decision.kind).toBe(kind);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('never lets a later rule win over the language rule', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SAMPLES),
        userArb,
        fc.constantFrom('de', 'pt-BR', 'ru', 'zh'),
        (sample, user, tag) => {
          const below = sample.path ? `/${sample.path}` : '';
          const decision = go(`/${tag}${below}?x=1`, { user });
          expect(summary(decision)).toEqual(['redirect', 1, `/en${below}?x=1`]);
        },
      ),
    );
  });
});
