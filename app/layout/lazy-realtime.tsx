import { lazy, Suspense } from 'react';
import { useSession } from '../session/session-store.ts';

const RealtimeBridge = lazy(() =>
  import('../realtime/realtime-bridge.tsx').then((module) => ({ default: module.RealtimeBridge })),
);

/** Live updates for a signed-in user; a visitor's pages never load their code. */
export function LazyRealtime() {
  const signedIn = useSession((session) => session.user !== null);
  if (!signedIn) return null;
  return (
    <Suspense fallback={null}>
      <RealtimeBridge />
    </Suspense>
  );
}
