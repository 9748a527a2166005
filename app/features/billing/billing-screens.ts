import type { ScreenMap } from '../../routes/screens.ts';

// Screens of the billing area by route name (app/routes/route-table.ts). Routes not listed here
// show the "not available yet" screen until their issue lands.
export const screens: ScreenMap = {};
