import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { RealGatewayName } from '#shared/billing/gateway-settings.ts';
import { auditLogEndpoints } from '#shared/contracts/admin/audit-logs.ts';
import {
  type GatewaySettingsView,
  gatewaySettingsEndpoints,
} from '#shared/contracts/admin/payment-gateways.ts';
import { call } from '../../../api/client.ts';

export const gatewaySettingsKey = ['admin', gatewaySettingsEndpoints.list.url] as const;

/** One gateway's keys as in force, and a way to put what a save answered into the cache. */
export function useGatewaySettings(gateway: RealGatewayName) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: gatewaySettingsKey,
    queryFn: ({ signal }) => call(gatewaySettingsEndpoints.list, {}, { signal }),
    select: (answer) => answer.items.find((item) => item.gateway === gateway),
  });
  const show = useCallback(
    async (item: GatewaySettingsView) => {
      queryClient.setQueryData<{ items: GatewaySettingsView[] }>(gatewaySettingsKey, (answer) =>
        answer
          ? { items: answer.items.map((old) => (old.gateway === item.gateway ? item : old)) }
          : { items: [item] },
      );
      // The audit trail names the change next.
      await queryClient.invalidateQueries({ queryKey: ['admin', auditLogEndpoints.list.url] });
    },
    [queryClient],
  );
  return { query, show };
}
