import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isStaff } from '#shared/roles.ts';
import { storedUser } from '../session/browser-storage.ts';

/**
 * Log In, or the way back in for someone signed in here before (the app's stored user). The
 * page is the same for everyone, so this is decided after hydration, in the browser.
 */
export function AccountLink({ lang }: { lang: string }) {
  const { t } = useTranslation();
  const [user, setUser] = useState<ReturnType<typeof storedUser>>(null);
  useEffect(() => setUser(storedUser()), []);
  const className = 'whitespace-nowrap text-sm font-medium text-brand-700 hover:text-brand-800';
  if (user) {
    const home = isStaff(user.role) ? 'admin/dashboard' : 'dashboard';
    return (
      <a href={`/${lang}/${home}`} className={className} data-testid="account-link">
        {t('public_site.my_account')}
      </a>
    );
  }
  return (
    <a href={`/${lang}/signin`} className={className} data-testid="login-link">
      {t('layout.log_in')}
    </a>
  );
}
