import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import {
  billingEndpoints,
  type CardView,
  type SubscriptionDetail,
} from '#shared/contracts/billing.ts';
import { SERVICE_IDS } from '#shared/subscription/actions.ts';
import { call } from '../../../api/client.ts';
import {
  onSubscriptionRefreshed,
  refreshSubscription,
} from '../../../session/current-subscription.ts';

// The signed-in customer's billing: one query-key family, so a change can refresh everything
// billing at once (the subscription, its invoices, the cards) and nothing else.
const ROOT = ['billing', 'account'] as const;
export const billingKeys = {
  all: ROOT,
  subscription: [...ROOT, 'subscription'] as const,
  invoices: (page: number, perPage: number) => [...ROOT, 'invoices', perPage, page] as const,
  cards: [...ROOT, 'cards'] as const,
  address: [...ROOT, 'address'] as const,
  products: (serviceId: number, currency: string) =>
    [...ROOT, 'products', serviceId, currency] as const,
  preview: (productId: number) => [...ROOT, 'change-preview', productId] as const,
  services: [...ROOT, 'services'] as const,
};

/** §9 "The latest 3 invoices are kept for the membership view". */
export const LATEST_INVOICES = 3;
export const INVOICES_PER_PAGE = 10;

export function useSubscriptionDetail() {
  return useQuery({
    queryKey: billingKeys.subscription,
    queryFn: ({ signal }) => call(billingEndpoints.subscription, {}, { signal }),
    select: (answer) => answer.subscription,
  });
}

export function useInvoices(page: number, perPage: number) {
  return useQuery({
    queryKey: billingKeys.invoices(page, perPage),
    queryFn: ({ signal }) =>
      call(billingEndpoints.invoices, { query: { page, per_page: perPage } }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCards() {
  return useQuery({
    queryKey: billingKeys.cards,
    queryFn: ({ signal }) => call(billingEndpoints.cards, {}, { signal }),
    // §3 "The default card is listed first": the server does; a stable sort keeps it so.
    select: (answer) => defaultFirst(answer.items),
  });
}

/** The card service (§9 service 1) as the card form needs it: where card details are tokenized. */
export function useCardService() {
  return useQuery({
    queryKey: billingKeys.services,
    queryFn: ({ signal }) => call(billingEndpoints.services, {}, { signal }),
    select: (answer) => answer.items.find((service) => service.service_id === SERVICE_IDS.card),
    staleTime: 5 * 60_000,
  });
}

export function defaultFirst(cards: readonly CardView[]): CardView[] {
  return [...cards].sort((a, b) => Number(b.default) - Number(a.default));
}

/**
 * After a billing change: shows the subscription an action answered (when it did), then
 * fetches the session's current subscription anew (§4 "reload the subscription", for the
 * guards and menus), which makes every billing screen on show fetch its data again
 * (useBillingLiveRefresh) — as a live `Users\SubscriptionUpdated` does.
 */
export function useBillingRefresh() {
  const queryClient = useQueryClient();
  return useCallback(
    async (subscription?: SubscriptionDetail) => {
      if (subscription) queryClient.setQueryData(billingKeys.subscription, { subscription });
      try {
        await refreshSubscription();
      } catch (error) {
        // The guards fetch it again on the next navigation; billing is refreshed regardless.
        console.warn('subscription unavailable', error);
        await queryClient.invalidateQueries({ queryKey: billingKeys.all });
      }
    },
    [queryClient],
  );
}

/** Each refresh of the session's subscription (an action here, a live event) refreshes billing. */
export function useBillingLiveRefresh(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onSubscriptionRefreshed(() => {
        void queryClient.invalidateQueries({ queryKey: billingKeys.all });
      }),
    [queryClient],
  );
}

/** One per payment attempt (§ checkout contract): a retry of the same attempt charges once. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
