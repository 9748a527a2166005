import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  BILLING_MESSAGES,
  billingEndpoints,
  type CheckoutRequest,
  type ProductView,
  type ServiceView,
} from '#shared/contracts/billing.ts';
import { SERVICE_IDS, type ServiceId } from '#shared/subscription/actions.ts';
import { isApiError } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';

/** §9 "Product cache expires after about 0.5 minutes per service and currency." */
export const PRODUCTS_STALE_MS = 30_000;

export const billingKeys = {
  services: ['billing', 'services'] as const,
  products: (serviceId: ServiceId, currency: string) =>
    ['billing', 'products', serviceId, currency] as const,
  quote: (selection: QuoteSelection) => ['billing', 'quote', selection] as const,
  billingAddress: (userId: number) => ['billing', 'billing-address', userId] as const,
  subscription: (userId: number) => ['billing', 'subscription', userId] as const,
};

/** Which screen is ordering: each posts the same order to its own endpoint. */
export type OrderKind = 'checkout' | 'reactivate' | 'upgradeBonus';

export function submitOrder(kind: OrderKind, body: CheckoutRequest) {
  return call(billingEndpoints[kind], { body });
}

// In-app purchases are bought in the App Store and bonus days are earned, never paid for on
// the web: the order page offers the others the server lists.
const NOT_ON_THE_WEB: readonly ServiceId[] = [SERVICE_IDS.inAppPurchase, SERVICE_IDS.bonus];

export function useServices() {
  return useQuery({
    queryKey: billingKeys.services,
    queryFn: ({ signal }) => call(billingEndpoints.services, {}, { signal }),
    staleTime: PRODUCTS_STALE_MS,
    select: (data): ServiceView[] =>
      data.items
        .filter((service) => !NOT_ON_THE_WEB.includes(service.service_id))
        // The card form first: it is the one most people use.
        .sort((a, b) => Number(b.checkout === 'card_form') - Number(a.checkout === 'card_form')),
  });
}

export interface Catalog {
  currency: string;
  /** Plans by §3 `sort`, the ones on sale. */
  plans: ProductView[];
  /** Addons offered beside a plan, by id. */
  addons: Map<number, ProductView>;
}

export function useProducts(serviceId: ServiceId | undefined, currency: string) {
  return useQuery({
    queryKey: billingKeys.products(serviceId ?? SERVICE_IDS.card, currency),
    queryFn: ({ signal }) =>
      call(billingEndpoints.products, { query: { service_id: serviceId, currency } }, { signal }),
    enabled: serviceId !== undefined,
    staleTime: PRODUCTS_STALE_MS,
    select: (data): Catalog => {
      const onSale = data.items.filter((product) => product.visible && !product.disabled);
      return {
        currency: data.currency,
        plans: onSale
          .filter((product) => !product.additional)
          .sort((a, b) => a.sort - b.sort || a.product_id - b.product_id),
        addons: new Map(
          onSale.filter((product) => product.additional).map((addon) => [addon.product_id, addon]),
        ),
      };
    },
  });
}

export interface QuoteSelection {
  product_id: number;
  addon_ids: number[];
  coupon: string | undefined;
}

export function fetchQuote(selection: QuoteSelection, signal?: AbortSignal) {
  const { coupon, ...rest } = selection;
  return call(billingEndpoints.quote, { body: coupon ? { ...rest, coupon } : rest }, { signal });
}

/** What the order costs; a refused coupon fails it with a message under `coupon`. */
export function useQuote(selection: QuoteSelection | undefined) {
  return useQuery({
    queryKey: billingKeys.quote(selection ?? { product_id: 0, addon_ids: [], coupon: undefined }),
    queryFn: ({ signal }) => fetchQuote(selection as QuoteSelection, signal),
    enabled: selection !== undefined,
    placeholderData: keepPreviousData,
    staleTime: PRODUCTS_STALE_MS,
    // A refusal is an answer, not a hiccup.
    retry: (count, error) => count < 1 && !(isApiError(error) && error.status < 500),
  });
}

export function useSavedBillingAddress(userId: number | undefined) {
  return useQuery({
    queryKey: billingKeys.billingAddress(userId ?? 0),
    queryFn: ({ signal }) => call(billingEndpoints.billingAddress, {}, { signal }),
    enabled: userId !== undefined,
    select: (data) => data.billing_address,
  });
}

/** §3 crypto approval pending: asked while the signed-in customer looks at crypto. */
export function usePendingCrypto(userId: number | undefined, crypto: boolean) {
  return useQuery({
    queryKey: [...billingKeys.subscription(userId ?? 0), 'pending-payment'],
    queryFn: ({ signal }) => call(billingEndpoints.pendingPayment, {}, { signal }),
    enabled: userId !== undefined && crypto,
    select: (data) => data.pending,
  });
}

/** The message a refused coupon came back with, if that is what the error is. */
export function couponRefusal(error: unknown): string | undefined {
  if (!isApiError(error)) return undefined;
  return error.validation.coupon?.[0];
}

/** The subscription is not there yet (the webhook may be a moment behind the payment). */
export function isSubscriptionMissing(error: unknown): boolean {
  if (!isApiError(error)) return false;
  return (
    error.status === 404 ||
    error.info.includes(BILLING_MESSAGES.noSubscription) ||
    Object.values(error.validation).some((messages) =>
      messages.includes(BILLING_MESSAGES.noSubscription),
    )
  );
}
