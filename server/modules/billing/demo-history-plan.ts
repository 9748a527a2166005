import type { GatewayName, PaymentMethodType } from '#shared/billing/billing-values.ts';
import type { Lang } from '#shared/locales.ts';
import type { ServiceId, SubscriptionStatus } from '#shared/subscription/actions.ts';
import { asciiHandle, currencyFor, REGIONS } from './demo-history-people.ts';
import { retriesDue, retryAt } from './dunning-schedule.ts';

// The demo history as a story told in memory: who signed up when, what each bought, renewed,
// failed to pay, got back or gave up, over the last 18 months. Pure and seeded: the same
// `now` gives the same story, so every start of a demo looks the same relative to its day.
// demo-history.ts writes it.

const DAY_MS = 86_400_000;
const HISTORY_DAYS = 548;
export const HISTORY_CUSTOMERS = 2000;

/** A plan of the demo catalog as the story needs it. */
export interface PlanProduct {
  id: number;
  serviceId: ServiceId;
  plan: string;
  name: string;
  currency: string;
  interval: 'day' | 'week' | 'month' | 'year' | null;
  intervalCount: number;
  amount: number;
  onetime: boolean;
  addon: { id: number; name: string; amount: number } | null;
}

export interface HistoryInput {
  now: Date;
  /** BILLING_GRACE_DAYS: how long an on-hold subscription keeps access. */
  graceDays: number;
  plans: readonly PlanProduct[];
  /** Service 5's product (bonus-days.ts makes the same one on first use). */
  bonusProductId: number;
  /** ISO codes the countries table holds: a region's country missing there is skipped. */
  countryCodes: ReadonlySet<string>;
}

export interface DemoCoupon {
  code: string;
  name: string;
  percentOff: number;
  duration: 'once' | 'repeating' | 'forever';
  durationInMonths: number | null;
  createdAt: Date;
  expiresAt: Date | null;
}

/**
 * Coupons the history redeems: a welcome offer, last Black Friday's (ended), a win-back
 * offer for three months. Their codes are unlikely to be typed by staff or a journey.
 */
export function demoCoupons(now: Date): DemoCoupon[] {
  const friday = lastBlackFriday(now);
  return [
    {
      code: 'WELCOME20',
      name: 'Welcome: 20% off the first invoice',
      percentOff: 20,
      duration: 'once',
      durationInMonths: null,
      createdAt: new Date(now.getTime() - 520 * DAY_MS),
      expiresAt: null,
    },
    {
      code: 'BLACKFRIDAY40',
      name: 'Black Friday: 40% off the first invoice',
      percentOff: 40,
      duration: 'once',
      durationInMonths: null,
      createdAt: new Date(friday.getTime() - 7 * DAY_MS),
      // Through Cyber Monday.
      expiresAt: new Date(friday.getTime() + 4 * DAY_MS),
    },
    {
      code: 'STAYWITHUS15',
      name: 'Win-back: 15% off three months',
      percentOff: 15,
      duration: 'repeating',
      durationInMonths: 3,
      createdAt: new Date(now.getTime() - 400 * DAY_MS),
      expiresAt: null,
    },
  ];
}

/** The latest Black Friday (fourth Friday of November) whose offer ended before now. */
function lastBlackFriday(now: Date): Date {
  for (let year = now.getUTCFullYear(); ; year -= 1) {
    const first = new Date(Date.UTC(year, 10, 1)).getUTCDay();
    const friday = new Date(Date.UTC(year, 10, 1 + ((5 - first + 7) % 7) + 21));
    if (friday.getTime() + 4 * DAY_MS < now.getTime()) return friday;
  }
}

export interface HistoryCustomer {
  email: string;
  username: string;
  name: string;
  lang: Lang;
  country: string;
  createdAt: Date;
  emailVerifiedAt: Date | null;
  blockedAt: Date | null;
  deleteAt: Date | null;
}

export interface HistorySubscription {
  ref: string;
  gateway: GatewayName;
  email: string;
  serviceId: ServiceId;
  productId: number;
  status: SubscriptionStatus;
  onetime: boolean;
  paymentMethodType: PaymentMethodType;
  paymentMethodRef: string | null;
  currency: string;
  amount: number;
  items: { productId: number; amount: number }[];
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  endedAt: Date | null;
  pausedAt: Date | null;
  graceUntil: Date | null;
  couponCode: string | null;
  discountPeriodsLeft: number | null;
  createdAt: Date;
  updatedAt: Date;
  /** Whether an invoice of it was paid: only then does the ledger grant anything. */
  paid: boolean;
}

export interface HistoryLine {
  productId: number;
  description: string;
  amount: number;
  periodStart: Date;
  periodEnd: Date;
}

export interface HistoryInvoice {
  ref: string;
  gateway: GatewayName;
  email: string;
  /** None for a crypto order never paid: Cryptomus's invoice only, nothing bought. */
  subscriptionRef: string | null;
  status: 'open' | 'paid' | 'uncollectible' | 'void';
  currency: string;
  subtotal: number;
  discountTotal: number;
  total: number;
  amountPaid: number;
  amountRefunded: number;
  couponCode: string | null;
  periodStart: Date;
  periodEnd: Date;
  lastFailure: string | null;
  attemptCount: number;
  nextAttemptAt: Date | null;
  issuedAt: Date;
  paidAt: Date | null;
  updatedAt: Date;
  lines: HistoryLine[];
}

export interface HistoryPayment {
  ref: string;
  gateway: GatewayName;
  invoiceRef: string;
  email: string;
  status: 'succeeded' | 'failed';
  amount: number;
  currency: string;
  paymentMethodRef: string | null;
  failureCode: string | null;
  failureMessage: string | null;
  createdAt: Date;
}

export interface HistoryRefund {
  ref: string;
  gateway: GatewayName;
  paymentRef: string;
  invoiceRef: string;
  amount: number;
  currency: string;
  reason: string;
  /** Given by staff (the demo admin), else reported by the gateway (a chargeback, Apple). */
  byStaff: boolean;
  createdAt: Date;
}

export interface HistoryRedemption {
  code: string;
  gateway: GatewayName;
  email: string;
  subscriptionRef: string;
  redeemedAt: Date;
}

export interface DemoHistory {
  customers: HistoryCustomer[];
  gatewayCustomers: { email: string; gateway: GatewayName; createdAt: Date }[];
  subscriptions: HistorySubscription[];
  invoices: HistoryInvoice[];
  payments: HistoryPayment[];
  refunds: HistoryRefund[];
  redemptions: HistoryRedemption[];
}

/** mulberry32: small, fast and good enough for made-up customers. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    chance: (p: number) => next() < p,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    weighted: <T>(items: readonly (readonly [T, number])[]): T => {
      const total = items.reduce((sum, [, weight]) => sum + weight, 0);
      let at = next() * total;
      for (const [item, weight] of items) {
        at -= weight;
        if (at < 0) return item;
      }
      return (items.at(-1) as readonly [T, number])[0];
    },
  };
}
type Random = ReturnType<typeof prng>;

/** Months later on the same day of the month (the 31st becomes the month's last day). */
function addMonths(date: Date, months: number, anchorDay: number): Date {
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const moved = new Date(date);
  moved.setUTCFullYear(year, month, Math.min(anchorDay, last));
  return moved;
}

const monthsOf = (plan: PlanProduct) =>
  (plan.interval === 'year' ? 12 : 1) * Math.max(plan.intervalCount, 1);

const GATEWAY_OF: Record<ServiceId, GatewayName> = {
  // Cards as Stripe's: the sandbox keeps its own books and knows none of these refs (see
  // demo-history.ts for why no running gateway may hold the history).
  1: 'stripe',
  2: 'paypal',
  4: 'appstore',
  5: 'bonus',
  6: 'cryptomus',
};
const METHOD_OF: Record<ServiceId, PaymentMethodType> = {
  1: 'card',
  2: 'paypal',
  4: 'in_app',
  5: 'bonus',
  6: 'crypto',
};

const DECLINES = [
  ['card_declined', 'Your card was declined.'],
  ['insufficient_funds', 'Your card has insufficient funds.'],
  ['expired_card', 'Your card has expired.'],
  ['processing_error', 'An error occurred while processing your card.'],
] as const;

const REFUND_REASONS = ['requested_by_customer', 'duplicate', 'service_not_working', 'fraudulent'];

/** The story of one start: everything refers to `now`. */
export function planDemoHistory(input: HistoryInput): DemoHistory {
  const random = prng(20_240_613);
  const now = input.now.getTime();
  const coupons = demoCoupons(input.now);
  const story: DemoHistory = {
    customers: [],
    gatewayCustomers: [],
    subscriptions: [],
    invoices: [],
    payments: [],
    refunds: [],
    redemptions: [],
  };
  const serial = { subscription: 0, invoice: 0, payment: 0, refund: 0 };
  const ref = (gateway: GatewayName, kind: keyof typeof serial) => {
    serial[kind] += 1;
    return `demo_${gateway}_${kind}_${String(serial[kind]).padStart(6, '0')}`;
  };
  const plansOf = (serviceId: ServiceId) =>
    input.plans.filter((plan) => plan.serviceId === serviceId);

  for (const customer of makeCustomers(random, input, now)) {
    story.customers.push(customer);
    const known = new Set<GatewayName>();
    const atGateway = (gateway: GatewayName, at: Date) => {
      if (known.has(gateway)) return;
      known.add(gateway);
      story.gatewayCustomers.push({ email: customer.email, gateway, createdAt: at });
    };
    // Some come through a referral: 30 bonus days, long used up.
    const joined = customer.createdAt.getTime();
    if (random.chance(0.06) && joined < now - 45 * DAY_MS) {
      const start = new Date(joined + random.int(0, 3) * DAY_MS);
      atGateway('bonus', start);
      bonusRun(
        story,
        ref('bonus', 'subscription'),
        ref('bonus', 'invoice'),
        customer,
        start,
        input,
      );
    }
    // About a fifth never buy: an account made to look around.
    if (random.chance(0.21)) continue;
    let from =
      joined + (random.chance(0.7) ? random.int(0, 90) * 60_000 : random.int(1, 20) * DAY_MS);
    // Some come back after leaving: each purchase starts after the last one ended.
    for (let purchase = 0; from < now - DAY_MS && purchase < 3; purchase += 1) {
      const serviceId = random.weighted<ServiceId>(
        customer.country === 'RU' || customer.country === 'BY'
          ? [
              [1, 80],
              [6, 20],
            ]
          : [
              [1, 58],
              [2, 21],
              [4, 13],
              [6, 8],
            ],
      );
      const offered = plansOf(serviceId);
      if (offered.length === 0) break;
      const currency = currencyFor(customer.country, [...new Set(offered.map((p) => p.currency))]);
      const inCurrency = offered.filter((plan) => plan.currency === currency);
      const plan = random.weighted(
        inCurrency.map(
          (candidate) =>
            [
              candidate,
              candidate.plan === 'family'
                ? 6
                : monthsOf(candidate) === 1
                  ? 56
                  : monthsOf(candidate) === 12
                    ? 34
                    : 6,
            ] as const,
        ),
      );
      const gateway = GATEWAY_OF[serviceId];
      const start = new Date(from);
      atGateway(gateway, start);
      const ended =
        serviceId === 6
          ? cryptoPurchases(story, random, ref, customer, plan, start, now)
          : subscription(
              story,
              random,
              ref,
              customer,
              plan,
              offered,
              start,
              input,
              coupons,
              purchase > 0,
            );
      if (ended === null || !random.chance(0.18)) break;
      from = ended + random.int(20, 150) * DAY_MS;
    }
  }
  return story;
}

function makeCustomers(random: Random, input: HistoryInput, now: number): HistoryCustomer[] {
  const regions = REGIONS.map((region) => ({
    ...region,
    countries: region.countries.filter(([code]) => input.countryCodes.has(code)),
  })).filter((region) => region.countries.length > 0);
  const byCountry = regions.flatMap((region) =>
    region.countries.map(([code, weight]) => [{ region, code }, weight] as const),
  );
  // Sign-ups grow over the 18 months: about three times as many in the last month as in
  // the first (an exponential density, sampled by its inverse).
  const growth = 1.2;
  const times = Array.from({ length: HISTORY_CUSTOMERS }, () => {
    const t = Math.log(1 + random.next() * (Math.exp(growth) - 1)) / growth;
    return Math.min(now - (1 - t) * HISTORY_DAYS * DAY_MS, now - 2 * 3_600_000);
  }).sort((a, b) => a - b);
  return times.map((time, index) => {
    const { region, code } = random.weighted(byCountry);
    const first = random.pick(region.first);
    const last = random.pick(region.last);
    const handle = `${asciiHandle(first)}.${asciiHandle(last)}`;
    const number = 1000 + index;
    const style = random.int(0, 3);
    const local =
      style === 0
        ? `${handle}${number}`
        : style === 1
          ? `${asciiHandle(first)}${asciiHandle(last)}${number}`
          : style === 2
            ? `${asciiHandle(first).slice(0, 1)}.${asciiHandle(last)}${number}`
            : `${asciiHandle(first)}_${number}`;
    const createdAt = new Date(Math.floor(time / 1000) * 1000);
    return {
      email: `${local}@${random.chance(0.8) ? 'example.net' : 'example.org'}`,
      username: `${asciiHandle(first)}_${asciiHandle(last)}${number}`,
      name: `${first} ${last}`,
      // Outside the five languages' own countries, and for a quarter inside, English.
      lang: region.lang !== 'en' && random.chance(0.75) ? region.lang : 'en',
      country: code,
      createdAt,
      emailVerifiedAt: random.chance(0.93)
        ? new Date(createdAt.getTime() + random.int(1, 40) * 60_000)
        : null,
      blockedAt: random.chance(0.004) ? new Date(now - random.int(1, 60) * DAY_MS) : null,
      deleteAt: random.chance(0.003) ? new Date(now + random.int(5, 25) * DAY_MS) : null,
    };
  });
}

type Ref = (
  gateway: GatewayName,
  kind: 'subscription' | 'invoice' | 'payment' | 'refund',
) => string;

function bonusRun(
  story: DemoHistory,
  subscriptionRef: string,
  invoiceRef: string,
  customer: HistoryCustomer,
  start: Date,
  input: HistoryInput,
): void {
  const end = new Date(start.getTime() + 30 * DAY_MS);
  // Ended already: a live bonus run would be lapsed by the running bonus gateway's sweep.
  story.subscriptions.push({
    ref: subscriptionRef,
    gateway: 'bonus',
    email: customer.email,
    serviceId: 5,
    productId: input.bonusProductId,
    status: 'expired',
    onetime: false,
    paymentMethodType: 'bonus',
    paymentMethodRef: null,
    currency: 'USD',
    amount: 0,
    items: [{ productId: input.bonusProductId, amount: 0 }],
    currentPeriodStart: start,
    currentPeriodEnd: end,
    cancelAtPeriodEnd: false,
    canceledAt: null,
    endedAt: end,
    pausedAt: null,
    graceUntil: null,
    couponCode: null,
    discountPeriodsLeft: null,
    createdAt: start,
    updatedAt: end,
    paid: true,
  });
  story.invoices.push({
    ref: invoiceRef,
    gateway: 'bonus',
    email: customer.email,
    subscriptionRef,
    status: 'paid',
    currency: 'USD',
    subtotal: 0,
    discountTotal: 0,
    total: 0,
    amountPaid: 0,
    amountRefunded: 0,
    couponCode: null,
    periodStart: start,
    periodEnd: end,
    lastFailure: null,
    attemptCount: 0,
    nextAttemptAt: null,
    issuedAt: start,
    paidAt: start,
    updatedAt: start,
    lines: [
      {
        productId: input.bonusProductId,
        description: '30 bonus days: referral',
        amount: 0,
        periodStart: start,
        periodEnd: end,
      },
    ],
  });
}

/** A crypto order whose payment failed: its void invoice (Cryptomus's stage 'void'). */
function unpaidCryptoOrder(
  story: DemoHistory,
  random: Random,
  ref: Ref,
  customer: HistoryCustomer,
  plan: PlanProduct,
  at: Date,
): void {
  const invoiceRef = ref('cryptomus', 'invoice');
  const status = random.pick(['wrong_amount', 'fail', 'cancel'] as const);
  const closed = new Date(at.getTime() + random.int(15, 120) * 60_000);
  story.invoices.push({
    ref: invoiceRef,
    gateway: 'cryptomus',
    email: customer.email,
    subscriptionRef: null,
    status: 'void',
    currency: plan.currency,
    subtotal: plan.amount,
    discountTotal: 0,
    total: plan.amount,
    amountPaid: 0,
    amountRefunded: 0,
    couponCode: null,
    periodStart: at,
    periodEnd: addMonths(at, monthsOf(plan), at.getUTCDate()),
    lastFailure: status,
    attemptCount: 1,
    nextAttemptAt: null,
    issuedAt: at,
    paidAt: null,
    updatedAt: closed,
    lines: [
      {
        productId: plan.id,
        description: plan.name,
        amount: plan.amount,
        periodStart: at,
        periodEnd: addMonths(at, monthsOf(plan), at.getUTCDate()),
      },
    ],
  });
  // A customer who never paid (cancel) made no payment at all (cryptomus-snapshots.ts).
  if (status === 'cancel') return;
  story.payments.push({
    ref: ref('cryptomus', 'payment'),
    gateway: 'cryptomus',
    invoiceRef,
    email: customer.email,
    status: 'failed',
    amount: plan.amount,
    currency: plan.currency,
    paymentMethodRef: null,
    failureCode: status,
    failureMessage: `Cryptomus: ${status}`,
    createdAt: closed,
  });
}

/** A discount of `percent` on an amount, rounded as gateways round (half up). */
const percentOf = (amount: number, percent: number) => Math.round((amount * percent) / 100);

/**
 * A renewing subscription (cards, PayPal, App Store) from `start`, period after period until
 * now or its end; answers when it ended, or null while it still runs (or is paused, on hold).
 */
function subscription(
  story: DemoHistory,
  random: Random,
  ref: Ref,
  customer: HistoryCustomer,
  firstPlan: PlanProduct,
  offered: readonly PlanProduct[],
  start: Date,
  input: HistoryInput,
  coupons: readonly DemoCoupon[],
  returning: boolean,
): number | null {
  const now = input.now.getTime();
  const { serviceId } = firstPlan;
  const gateway = GATEWAY_OF[serviceId];
  const subscriptionRef = ref(gateway, 'subscription');
  const card = serviceId === 1 ? `demo_stripe_pm_${subscriptionRef.slice(-6)}` : null;
  let plan = firstPlan;
  let withAddon = plan.addon !== null && random.chance(0.16);
  const anchorDay = start.getUTCDate();
  // The first invoice may carry a coupon: Black Friday's in its week, else a welcome offer.
  const [welcome, blackFriday, winBack] = coupons;
  let coupon: DemoCoupon | null =
    couponLive(blackFriday, start) && random.chance(0.45)
      ? blackFriday
      : !returning && couponLive(welcome, start) && random.chance(0.07)
        ? welcome
        : returning && couponLive(winBack, start) && random.chance(0.3)
          ? winBack
          : null;
  let discountsLeft = coupon ? (coupon.durationInMonths ?? 1) : 0;
  let couponNamed: string | null = coupon?.code ?? null;
  if (coupon) {
    story.redemptions.push({
      code: coupon.code,
      email: customer.email,
      gateway,
      subscriptionRef,
      redeemedAt: start,
    });
  }
  const row: HistorySubscription = {
    ref: subscriptionRef,
    gateway,
    email: customer.email,
    serviceId,
    productId: plan.id,
    status: 'active',
    onetime: false,
    paymentMethodType: METHOD_OF[serviceId],
    paymentMethodRef: card,
    currency: plan.currency,
    amount: 0,
    items: [],
    currentPeriodStart: start,
    currentPeriodEnd: start,
    cancelAtPeriodEnd: false,
    canceledAt: null,
    endedAt: null,
    pausedAt: null,
    graceUntil: null,
    couponCode: couponNamed,
    discountPeriodsLeft: null,
    createdAt: start,
    updatedAt: start,
    paid: false,
  };
  story.subscriptions.push(row);

  let periodStart = start;
  for (let period = 0; ; period += 1) {
    const periodEnd = addMonths(periodStart, monthsOf(plan), anchorDay);
    const items = [{ productId: plan.id, amount: plan.amount, description: plan.name }];
    if (withAddon && plan.addon) {
      items.push({
        productId: plan.addon.id,
        amount: plan.addon.amount,
        description: plan.addon.name,
      });
    }
    const subtotal = items.reduce((sum, item) => sum + item.amount, 0);
    const discountTotal = coupon && discountsLeft > 0 ? percentOf(subtotal, coupon.percentOff) : 0;
    const discounted = discountTotal > 0 ? coupon : null;
    if (discounted) discountsLeft -= 1;
    if (discountsLeft === 0) coupon = null;
    const total = subtotal - discountTotal;
    Object.assign(row, {
      productId: plan.id,
      currency: plan.currency,
      amount: subtotal,
      items: items.map(({ productId, amount }) => ({ productId, amount })),
      currentPeriodStart: periodStart,
      currentPeriodEnd: periodEnd,
      discountPeriodsLeft: coupon && coupon.duration === 'repeating' ? discountsLeft : null,
      updatedAt: periodStart,
    });
    const invoice: HistoryInvoice = {
      ref: ref(gateway, 'invoice'),
      gateway,
      email: customer.email,
      subscriptionRef,
      status: 'paid',
      currency: plan.currency,
      subtotal,
      discountTotal,
      total,
      amountPaid: total,
      amountRefunded: 0,
      couponCode: discounted?.code ?? null,
      periodStart,
      periodEnd,
      lastFailure: null,
      attemptCount: 1,
      nextAttemptAt: null,
      issuedAt: periodStart,
      paidAt: new Date(periodStart.getTime() + random.int(2, 90) * 1000),
      updatedAt: periodStart,
      lines: items.map((item) => ({
        productId: item.productId,
        description: item.description,
        amount: item.amount,
        periodStart,
        periodEnd,
      })),
    };
    story.invoices.push(invoice);
    const pay = (status: 'succeeded' | 'failed', at: Date, decline?: readonly [string, string]) => {
      const payment: HistoryPayment = {
        ref: ref(gateway, 'payment'),
        gateway,
        invoiceRef: invoice.ref,
        email: customer.email,
        status,
        amount: total,
        currency: plan.currency,
        paymentMethodRef: card,
        failureCode: decline?.[0] ?? null,
        failureMessage: decline?.[1] ?? null,
        createdAt: at,
      };
      story.payments.push(payment);
      return payment;
    };

    // A renewal's charge may fail (the first charge is made while the customer is there).
    // Those of the last days fail more often, so some are on hold on any day the demo starts.
    const failing = periodStart.getTime() > now - 5 * DAY_MS ? 3 : 1;
    if (period > 0 && random.chance(failing * (serviceId === 4 ? 0.03 : 0.055))) {
      const decline = random.pick(DECLINES);
      const firstFailure = periodStart;
      pay('failed', firstFailure, decline);
      invoice.lastFailure = decline[1];
      const graceUntil = new Date(firstFailure.getTime() + input.graceDays * DAY_MS);
      const lastRetry = retryAt(firstFailure, 2) as Date;
      if (lastRetry.getTime() > now) {
        // Failing now: on hold, the retries so far made, the next one due (dunning-schedule.ts).
        const made = retriesDue(firstFailure, input.now);
        for (let retry = 0; retry < made; retry += 1) {
          pay('failed', retryAt(firstFailure, retry) as Date, decline);
        }
        Object.assign(invoice, {
          status: 'open',
          amountPaid: 0,
          paidAt: null,
          attemptCount: 1 + made,
          nextAttemptAt: retryAt(firstFailure, made),
          updatedAt: made > 0 ? retryAt(firstFailure, made - 1) : firstFailure,
        });
        Object.assign(row, { status: 'on_hold', graceUntil, updatedAt: invoice.updatedAt });
        return null;
      }
      const recoveredAt = random.chance(0.55) ? random.int(0, 2) : null;
      const retries = recoveredAt ?? 3;
      for (let retry = 0; retry < retries; retry += 1) {
        pay('failed', retryAt(firstFailure, retry) as Date, decline);
      }
      if (recoveredAt === null) {
        // Every retry failed: the gateway ended it for non-payment.
        Object.assign(invoice, {
          status: 'uncollectible',
          amountPaid: 0,
          paidAt: null,
          attemptCount: 4,
          updatedAt: lastRetry,
        });
        Object.assign(row, {
          status: 'failed',
          currentPeriodStart: periodStart,
          currentPeriodEnd: periodEnd,
          endedAt: lastRetry,
          updatedAt: lastRetry,
        });
        return lastRetry.getTime();
      }
      const paidAt = retryAt(firstFailure, recoveredAt) as Date;
      pay('succeeded', paidAt);
      Object.assign(invoice, { attemptCount: 2 + recoveredAt, paidAt, updatedAt: paidAt });
    } else {
      pay('succeeded', invoice.paidAt as Date);
    }
    row.paid = true;

    // Refunds: in full (the subscription ends, refunded), mostly of a first payment under the
    // money-back guarantee, or a part (it goes on).
    const paidAt = invoice.paidAt as Date;
    const succeeded = story.payments.at(-1) as HistoryPayment;
    const refundRoll = random.next();
    const refundAt = new Date(
      paidAt.getTime() + random.int(1, 12) * DAY_MS + random.int(0, 80_000) * 1000,
    );
    const fullRate = period === 0 ? 0.045 : 0.005;
    if (total > 0 && refundRoll < fullRate + 0.012 && refundAt.getTime() < now) {
      const full = refundRoll < fullRate;
      const amount = full ? total : percentOf(total, random.pick([25, 30, 50]));
      story.refunds.push({
        ref: ref(gateway, 'refund'),
        gateway,
        paymentRef: succeeded.ref,
        invoiceRef: invoice.ref,
        amount,
        currency: plan.currency,
        reason: full ? random.pick(REFUND_REASONS) : 'requested_by_customer',
        byStaff: serviceId !== 4 && random.chance(0.8),
        createdAt: refundAt,
      });
      invoice.amountRefunded = amount;
      invoice.updatedAt = refundAt;
      if (full) {
        Object.assign(row, {
          status: 'refunded',
          canceledAt: refundAt,
          endedAt: refundAt,
          updatedAt: refundAt,
        });
        return refundAt.getTime();
      }
    }

    if (periodEnd.getTime() > now) {
      // The period running now: most renew, some asked to stop at its end.
      if (random.chance(0.08)) {
        const askedAt = new Date(
          periodStart.getTime() + random.next() * (now - periodStart.getTime()),
        );
        Object.assign(row, {
          status: 'canceled',
          cancelAtPeriodEnd: true,
          canceledAt: askedAt,
          updatedAt: askedAt,
        });
      }
      return null;
    }

    const months = monthsOf(plan);
    const churn = months === 1 ? 0.045 : plan.plan === 'family' ? 0.2 : months === 12 ? 0.28 : 0.35;
    if (random.chance(churn)) {
      const askedAt = new Date(
        periodStart.getTime() + random.next() * (periodEnd.getTime() - periodStart.getTime()),
      );
      Object.assign(row, {
        status: 'expired',
        cancelAtPeriodEnd: true,
        canceledAt: askedAt,
        endedAt: periodEnd,
        updatedAt: periodEnd,
      });
      return periodEnd.getTime();
    }
    // Paused at a renewal (cards and PayPal) for a month or three, not charged meanwhile:
    // resumed since (its MRR comes back), or paused still.
    if (serviceId !== 4 && months === 1 && random.chance(0.02)) {
      const resumesAt = addMonths(periodEnd, random.int(1, 3), anchorDay);
      if (resumesAt.getTime() > now) {
        Object.assign(row, { status: 'paused', pausedAt: periodEnd, updatedAt: periodEnd });
        return null;
      }
      periodStart = resumesAt;
      continue;
    }
    // Plan changes take effect at a renewal: more (an addon, the family plan) or less.
    // The App Store sells no addons nor family plan here: its plans stay as bought.
    const changes = serviceId === 4 ? 0.5 : random.next();
    const sameCurrency = offered.filter((candidate) => candidate.currency === plan.currency);
    const family = sameCurrency.find((candidate) => candidate.plan === 'family');
    const yearly = sameCurrency.find(
      (candidate) => candidate.plan === 'standard' && monthsOf(candidate) === 12,
    );
    if (plan.addon && !withAddon && changes < 0.035) withAddon = true;
    else if (withAddon && changes < 0.03) withAddon = false;
    else if (plan === yearly && family && changes < 0.08) plan = family;
    else if (plan === family && yearly && changes < 0.15) plan = yearly;
    else if (months === 1 && yearly && changes > 0.975) plan = yearly;
    // A loyal customer may be offered the win-back coupon on a renewal.
    if (
      winBack &&
      !coupon &&
      !couponNamed &&
      months === 1 &&
      random.chance(0.004) &&
      couponLive(winBack, periodEnd)
    ) {
      coupon = winBack;
      discountsLeft = winBack.durationInMonths ?? 1;
      couponNamed = winBack.code;
      row.couponCode = winBack.code;
      story.redemptions.push({
        code: winBack.code,
        email: customer.email,
        gateway,
        subscriptionRef,
        redeemedAt: periodEnd,
      });
    }
    periodStart = periodEnd;
  }
}

/**
 * Crypto buys one period at a time (Cryptomus has no subscriptions): each purchase is its
 * own one-time subscription; many buy again when it runs out. Answers when the last ended,
 * or null while one runs.
 */
function cryptoPurchases(
  story: DemoHistory,
  random: Random,
  ref: Ref,
  customer: HistoryCustomer,
  firstPlan: PlanProduct,
  start: Date,
  now: number,
): number | null {
  const plan = firstPlan;
  let from = start;
  for (;;) {
    // Some crypto payments fail first (the wrong amount sent, the payment window missed):
    // the invoice is void, nothing bought; most pay a new invoice within hours.
    if (random.chance(0.12)) {
      unpaidCryptoOrder(story, random, ref, customer, plan, from);
      if (random.chance(0.25)) return from.getTime();
      from = new Date(from.getTime() + random.int(20, 600) * 60_000);
    }
    const end = addMonths(from, monthsOf(plan), from.getUTCDate());
    const subscriptionRef = ref('cryptomus', 'subscription');
    const invoiceRef = ref('cryptomus', 'invoice');
    const running = end.getTime() > now;
    const paidAt = new Date(from.getTime() + random.int(3, 40) * 60_000);
    const asked = running && random.chance(0.05);
    story.subscriptions.push({
      ref: subscriptionRef,
      gateway: 'cryptomus',
      email: customer.email,
      serviceId: 6,
      productId: plan.id,
      status: running ? (asked ? 'canceled' : 'active') : 'expired',
      onetime: true,
      paymentMethodType: 'crypto',
      paymentMethodRef: null,
      currency: plan.currency,
      amount: plan.amount,
      items: [{ productId: plan.id, amount: plan.amount }],
      currentPeriodStart: from,
      currentPeriodEnd: end,
      cancelAtPeriodEnd: asked,
      canceledAt: asked ? new Date(paidAt.getTime() + DAY_MS) : null,
      endedAt: running ? null : end,
      pausedAt: null,
      graceUntil: null,
      couponCode: null,
      discountPeriodsLeft: null,
      createdAt: from,
      updatedAt: running ? paidAt : end,
      paid: true,
    });
    story.invoices.push({
      ref: invoiceRef,
      gateway: 'cryptomus',
      email: customer.email,
      subscriptionRef,
      status: 'paid',
      currency: plan.currency,
      subtotal: plan.amount,
      discountTotal: 0,
      total: plan.amount,
      amountPaid: plan.amount,
      amountRefunded: 0,
      couponCode: null,
      periodStart: from,
      periodEnd: end,
      lastFailure: null,
      attemptCount: 1,
      nextAttemptAt: null,
      issuedAt: from,
      paidAt,
      updatedAt: paidAt,
      lines: [
        {
          productId: plan.id,
          description: plan.name,
          amount: plan.amount,
          periodStart: from,
          periodEnd: end,
        },
      ],
    });
    story.payments.push({
      ref: ref('cryptomus', 'payment'),
      gateway: 'cryptomus',
      invoiceRef,
      email: customer.email,
      status: 'succeeded',
      amount: plan.amount,
      currency: plan.currency,
      paymentMethodRef: null,
      failureCode: null,
      failureMessage: null,
      createdAt: paidAt,
    });
    if (running) return null;
    if (!random.chance(0.62)) return end.getTime();
    from = new Date(end.getTime() + random.int(0, 6) * DAY_MS + random.int(0, 86_000) * 1000);
    if (from.getTime() >= now - DAY_MS) return end.getTime();
  }
}

function couponLive(coupon: DemoCoupon | undefined, at: Date): coupon is DemoCoupon {
  return (
    coupon !== undefined &&
    at >= coupon.createdAt &&
    (coupon.expiresAt === null || at < coupon.expiresAt)
  );
}
