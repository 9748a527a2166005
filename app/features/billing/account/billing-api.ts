import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  billingEndpoints,
  type CardView,
  type SubscriptionDetail,
} from '#shared/contracts/billing.ts';
import { SERVICE_IDS } from '#shared/subscription/actions.ts';
import { call } from '../../../api/client.ts';
import { ensureSubscription } from '../../../session/current-subscription.ts';
import { updateSession } from '../../../session/session-store.ts';

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
 * The session's current subscription (§3: what the guards and the menus read) fetched anew,
 * as §4 "reload the subscription" does: after any change, so a route or a menu entry that
 * depends on it follows. A failure leaves it unknown; the next guard fetches it again.
 */
export async function reloadCurrentSubscription(): Promise<void> {
  updateSession({ subscription: undefined });
  try {
    await ensureSubscription();
  } catch (error) {
    console.warn('subscription unavailable', error);
  }
}

/**
 * After a billing change: shows the subscription an action answered (when it did), then
 * fetches the rest of billing and the session's subscription anew.
 */
export function useBillingRefresh() {
  const queryClient = useQueryClient();
  return useCallback(
    async (subscription?: SubscriptionDetail) => {
      if (subscription) queryClient.setQueryData(billingKeys.subscription, { subscription });
      await Promise.all([
        queryClient.invalidateQueries({
          queryKey: billingKeys.all,
          // The answer is the newest there is; fetching it again would only flicker.
          predicate: (query) =>
            !(subscription && query.queryKey[2] === billingKeys.subscription[2]),
        }),
        reloadCurrentSubscription(),
      ]);
    },
    [queryClient],
  );
}

/** One per payment attempt (§ checkout contract): a retry of the same attempt charges once. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
