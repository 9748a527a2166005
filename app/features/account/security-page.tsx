import { AccountLayout } from './account-layout.tsx';
import { ConnectedAppsPanel } from './connected-apps-panel.tsx';
import { DeleteAccountPanel } from './delete-account-panel.tsx';
import { DevicesPanel } from './devices-panel.tsx';
import { PasskeysPanel } from './passkeys-panel.tsx';
import { PasswordPanel } from './password-panel.tsx';
import { TwoFactorPanel } from './two-factor-panel.tsx';

/** §2 account.security and admin.account.security. */
export function SecurityPage() {
  return (
    <AccountLayout>
      <PasswordPanel />
      <TwoFactorPanel />
      <PasskeysPanel />
      <DevicesPanel />
      <ConnectedAppsPanel />
      <DeleteAccountPanel />
    </AccountLayout>
  );
}
