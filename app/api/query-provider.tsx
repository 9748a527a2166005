import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';

// One cache for the signed-in areas. It is imported only by lazy screens, so the public
// home's first bundle stays without it (the 150 KB budget). Keys carry the user's id, so a
// later sign-in never sees the previous user's data.
const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
