import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { getSession, subscribeSession } from '../session/session-store.ts';

// One cache for the signed-in areas. It is imported only by lazy screens, so the public
// home's first bundle stays without it. It is emptied whenever the signed-in user changes
// (sign-out, another sign-in), so nobody is ever shown what was fetched for someone else.
const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
});
let cachedFor = getSession().user?.id;
subscribeSession(() => {
  const userId = getSession().user?.id;
  if (userId === cachedFor) return;
  cachedFor = userId;
  queryClient.clear();
});

export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
