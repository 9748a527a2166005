import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { type AdminProduct, productEndpoints } from '#shared/contracts/admin/products.ts';
import { call } from '../../../api/client.ts';

export const productKey = (id: number) => ['admin', productEndpoints.view.url, id] as const;

/** One product, and a way to put the product a change answered into the cache. */
export function useProduct(id: number) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: productKey(id),
    queryFn: ({ signal }) => call(productEndpoints.view, { query: { product_id: id } }, { signal }),
  });
  const show = useCallback(
    async (product: AdminProduct) => {
      queryClient.setQueryData(productKey(id), { product });
      // The lists and pickers it appears in show the change next.
      await Promise.all(
        [productEndpoints.list, productEndpoints.includable, productEndpoints.services].map(
          (endpoint) => queryClient.invalidateQueries({ queryKey: ['admin', endpoint.url] }),
        ),
      );
    },
    [queryClient, id],
  );
  return { query, show };
}
