import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { auditLogEndpoints } from '#shared/contracts/admin/audit-logs.ts';
import {
  type AdminProduct,
  type AdminProductsQuery,
  type ProductMassChange,
  productEndpoints,
} from '#shared/contracts/admin/products.ts';
import { MAX_PER_PAGE } from '#shared/contracts/list.ts';
import { call } from '../../../api/client.ts';
import type { PlanTab } from './plan-tabs.ts';

const listKey = (tab: PlanTab, currency: string) =>
  ['admin', productEndpoints.list.url, 'manage-plans', tab.key, currency] as const;

type ListQuery = Pick<AdminProductsQuery, 'service_id' | 'kind' | 'currency'>;

/** Every page of a list: a service rarely has more than a page of plans, but may. */
async function listAll(query: ListQuery, signal: AbortSignal): Promise<AdminProduct[]> {
  const items: AdminProduct[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await call(
      productEndpoints.list,
      { query: { ...query, sort: 'sort', direction: 'asc', page, per_page: MAX_PER_PAGE } },
      { signal },
    );
    items.push(...answer.items);
    if (page >= answer.controls.last_page) return items;
  }
}

/** The payment services with the currencies each sells in. */
export function usePlanServices() {
  return useQuery({
    queryKey: ['admin', productEndpoints.services.url],
    queryFn: ({ signal }) => call(productEndpoints.services, {}, { signal }),
    select: (answer) => answer.items,
  });
}

/** The tab's products in one currency (every service's when the tab spans them). */
export function useManagedProducts(tab: PlanTab, currency: string | undefined) {
  const only = tab.services.length === 1 ? tab.services[0] : undefined;
  return useQuery({
    queryKey: listKey(tab, currency ?? ''),
    queryFn: ({ signal }) =>
      listAll({ service_id: only, kind: tab.kind, currency: currency ?? undefined }, signal),
    enabled: currency !== undefined,
  });
}

/** Names of the addons bundles include, for the bundles tab. */
export function useIncludedNames(tab: PlanTab, currency: string | undefined) {
  return useQuery({
    queryKey: ['admin', productEndpoints.includable.url, currency ?? ''],
    queryFn: ({ signal }) => call(productEndpoints.includable, { query: { currency } }, { signal }),
    enabled: tab.bundlesOnly && currency !== undefined,
    select: (answer) =>
      new Map(answer.items.map((product) => [product.product_id, product.name] as const)),
  });
}

/** Saves a draft's changes in one mass update and shows what the server answered. */
export function useSavePlans(tab: PlanTab, currency: string | undefined) {
  const queryClient = useQueryClient();
  return useCallback(
    async (items: ProductMassChange[]) => {
      const answer = await call(productEndpoints.massUpdate, { body: { items } });
      const key = listKey(tab, currency ?? '');
      const saved = new Map(answer.items.map((product) => [product.product_id, product]));
      queryClient.setQueryData<AdminProduct[]>(key, (old) =>
        old?.map((product) => saved.get(product.product_id) ?? product),
      );
      // Other products may have changed with these (the server keeps one most selected),
      // and the products screens, other tabs and the audit trail show the change next.
      await Promise.all(
        [productEndpoints.list, auditLogEndpoints.list].map((endpoint) =>
          queryClient.invalidateQueries({ queryKey: ['admin', endpoint.url] }),
        ),
      );
    },
    [queryClient, tab, currency],
  );
}
