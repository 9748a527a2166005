import type { ScreenMap } from '../../routes/screens.ts';
import { EmailChangeVerifyPage } from './email-change-verify-page.tsx';
import { ProfilePage } from './profile-page.tsx';
import { SecurityPage } from './security-page.tsx';

// Screens of the account area by route name (app/routes/route-table.ts). Routes not listed here
// show the "not available yet" screen until their issue lands.
export const screens: ScreenMap = {
  'account.profile': ProfilePage,
  'account.security': SecurityPage,
  'account.email.change.verify': EmailChangeVerifyPage,
};
