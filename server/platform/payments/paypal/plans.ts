import {
  IntervalUnit,
  PlanRequestStatus,
  SetupFeeFailureAction,
  SubscriptionPlanStatus,
  TenureType,
} from '@paypal/paypal-server-sdk';
import { type GatewayPrice, GatewayRequestError } from '../gateway.ts';
import { type PayPalApi, sdk } from './paypal-client.ts';
import { toPayPalMoney } from './paypal-money.ts';
import { regularCycle } from './snapshots.ts';
import type { PlanBook } from './subscription-reads.ts';

// Our products as PayPal billing plans: every plan hangs off one catalog product (the VPN
// service), and a product's plan is made once and reused while its price and period hold.

const UNITS = {
  day: IntervalUnit.Day,
  week: IntervalUnit.Week,
  month: IntervalUnit.Month,
  year: IntervalUnit.Year,
} as const;

/** PayPal's longest cycle per unit (a year at most, so no two-year plans). */
const MAX_COUNT = { day: 365, week: 52, month: 12, year: 1 } as const;

/** How many failed payments PayPal retries before it suspends the subscription. */
const FAILURE_THRESHOLD = 3;

/** The catalog product every plan belongs to, made at PayPal on first use. */
export function catalogProduct(api: PayPalApi, appUrl: string): () => Promise<string> {
  const id = `VPN-${new URL(appUrl).host.replace(/[^A-Za-z0-9]+/g, '-')}`.slice(0, 50);
  let made: Promise<string> | null = null;
  const make = async () => {
    // The catalog API is not in the SDK: our own call, with the SDK's token.
    try {
      await api.rest('GET', `/v1/catalogs/products/${encodeURIComponent(id)}`);
      return id;
    } catch (error) {
      if (!(error instanceof GatewayRequestError && error.kind === 'not_found')) throw error;
    }
    await api.rest(
      'POST',
      '/v1/catalogs/products',
      { id, name: 'VPN subscription', type: 'SERVICE', category: 'SOFTWARE' },
      `catalog-product-${id}`,
    );
    return id;
  };
  return () => {
    made ??= make().catch((error: unknown) => {
      made = null;
      throw error;
    });
    return made;
  };
}

function sameTerms(price: GatewayPrice, cycle: ReturnType<typeof regularCycle>): boolean {
  return (
    cycle !== null &&
    cycle.amount === price.amount &&
    cycle.currency === price.currency &&
    cycle.interval === price.interval &&
    cycle.intervalCount === price.intervalCount
  );
}

export async function ensurePlan(
  api: PayPalApi,
  plans: PlanBook,
  product: () => Promise<string>,
  price: GatewayPrice,
): Promise<string> {
  const { interval } = price;
  if (price.onetime || !interval) {
    throw new GatewayRequestError('invalid_request', 'PayPal sells subscriptions only here');
  }
  if (price.intervalCount < 1 || price.intervalCount > MAX_COUNT[interval]) {
    throw new GatewayRequestError(
      'invalid_request',
      `PayPal bills every ${MAX_COUNT[interval]} ${interval}(s) at most`,
    );
  }
  if (price.ref) {
    try {
      const held = await plans.get(price.ref);
      if (held.status === SubscriptionPlanStatus.Active && sameTerms(price, regularCycle(held)))
        return price.ref;
    } catch (error) {
      if (!(error instanceof GatewayRequestError && error.kind === 'not_found')) throw error;
    }
  }
  const productId = await product();
  const terms = `${price.amount}-${price.currency}-${price.intervalCount}-${price.interval}`;
  const plan = await sdk('create plan', () =>
    api.subscriptions.createBillingPlan({
      prefer: 'return=representation',
      // The same product at the same terms is one plan, however often this is asked.
      paypalRequestId: `plan-${price.productId}-${terms}`,
      body: {
        productId,
        name: price.name.slice(0, 127),
        status: PlanRequestStatus.Active,
        billingCycles: [
          {
            frequency: { intervalUnit: UNITS[interval], intervalCount: price.intervalCount },
            tenureType: TenureType.Regular,
            sequence: 1,
            // Until cancelled.
            totalCycles: 0,
            pricingScheme: { fixedPrice: toPayPalMoney(price.amount, price.currency) },
          },
        ],
        paymentPreferences: {
          autoBillOutstanding: true,
          setupFeeFailureAction: SetupFeeFailureAction.Cancel,
          paymentFailureThreshold: FAILURE_THRESHOLD,
        },
      },
    }),
  );
  if (!plan.id) throw new GatewayRequestError('invalid_request', 'PayPal made a plan without id');
  plans.remember(plan);
  return plan.id;
}
