import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { auditLogEndpoints } from '#shared/contracts/admin/audit-logs.ts';
import {
  type AdminOAuthClient,
  oauthClientEndpoints,
} from '#shared/contracts/admin/oauth-clients.ts';
import { call } from '../../../api/client.ts';

/** The lists keep the kit's key shape (`['admin', url, query]`), so one prefix reaches them. */
export const OAUTH_KEYS = {
  clients: ['admin', oauthClientEndpoints.list.url],
  client: (clientId: string) => ['admin', oauthClientEndpoints.view.url, clientId] as const,
} as const;

export function useOAuthClient(clientId: string | undefined) {
  return useQuery({
    queryKey: OAUTH_KEYS.client(clientId ?? ''),
    queryFn: ({ signal }) =>
      call(oauthClientEndpoints.view, { query: { client_id: clientId ?? '' } }, { signal }).then(
        (answer) => answer.client,
      ),
    enabled: clientId !== undefined,
  });
}

/** After a change: the client as answered, the lists and the audit trail fetched anew. */
export function useShowClient() {
  const queryClient = useQueryClient();
  return useCallback(
    async (client: AdminOAuthClient) => {
      queryClient.setQueryData(OAUTH_KEYS.client(client.client_id), client);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: OAUTH_KEYS.clients }),
        queryClient.invalidateQueries({ queryKey: ['admin', auditLogEndpoints.list.url] }),
      ]);
    },
    [queryClient],
  );
}
