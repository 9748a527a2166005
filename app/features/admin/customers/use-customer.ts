import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { auditLogEndpoints } from '#shared/contracts/admin/audit-logs.ts';
import { customerVpnEndpoints } from '#shared/contracts/admin/customer-vpn.ts';
import { type CustomerDetail, customerEndpoints } from '#shared/contracts/admin/customers.ts';
import { call } from '../../../api/client.ts';

export const customerKey = (id: number) => ['admin', customerEndpoints.view.url, id] as const;

/** One customer, and a way to put the account an action answered into the cache. */
export function useCustomer(id: number) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: customerKey(id),
    queryFn: ({ signal }) => call(customerEndpoints.view, { query: { user_id: id } }, { signal }),
  });
  const show = useCallback(
    async (user: CustomerDetail) => {
      queryClient.setQueryData(customerKey(id), { user });
      // The lists it appears in, its devices, its VPN (a traffic limit, a block) and the
      // audit trail show the change next.
      await Promise.all(
        [
          customerEndpoints.list,
          customerEndpoints.devices,
          customerVpnEndpoints.view,
          auditLogEndpoints.list,
        ].map((endpoint) => queryClient.invalidateQueries({ queryKey: ['admin', endpoint.url] })),
      );
    },
    [queryClient, id],
  );
  return { query, show };
}
