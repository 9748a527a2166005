import { AccountLayout } from './account-layout.tsx';
import { AvatarPanel } from './avatar-panel.tsx';
import { DataExportPanel } from './data-export-panel.tsx';
import { EmailChangeNotice } from './email-change-notice.tsx';
import { ProfileFormPanel } from './profile-form-panel.tsx';

/** §2 account.profile and admin.account.profile. */
export function ProfilePage() {
  return (
    <AccountLayout>
      <EmailChangeNotice />
      <AvatarPanel />
      <ProfileFormPanel />
      <DataExportPanel />
    </AccountLayout>
  );
}
