import type { ScreenMap } from '../../routes/screens.ts';
import { EmailChangeVerifyPage } from '../account/email-change-verify-page.tsx';
import { ProfilePage } from '../account/profile-page.tsx';
import { SecurityPage } from '../account/security-page.tsx';

// Screens of the admin area by route name (app/routes/route-table.ts). Routes not listed here
// show the "not available yet" screen until their issue lands. Staff manage their own account
// with the customer's screens, which talk to the dashboard base for them (§2 /admin/account).
export const screens: ScreenMap = {
  'admin.account.profile': ProfilePage,
  'admin.account.security': SecurityPage,
  'admin.account.email.change.verify': EmailChangeVerifyPage,
};
