import type { ComponentType } from 'react';
import type { Area } from './route-meta.ts';

/** The screens an area has built, by route name; a route without one is "not available yet". */
export type ScreenMap = Readonly<Partial<Record<string, ComponentType>>>;

// One dynamic import per area: Vite makes each a chunk of its own, so a screen's code is
// downloaded only when its area is first visited.
export const AREA_SCREENS: Record<Area, () => Promise<ScreenMap>> = {
  public: () => import('../features/public/public-screens.ts').then((m) => m.screens),
  account: () => import('../features/account/account-screens.ts').then((m) => m.screens),
  billing: () => import('../features/billing/billing-screens.ts').then((m) => m.screens),
  admin: () => import('../features/admin/admin-screens.ts').then((m) => m.screens),
};
