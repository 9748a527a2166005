import { useTranslation } from 'react-i18next';

/** What each scope lets an app do, in the person's words; `openid` goes without saying. */
const SCOPE_KEYS: Record<string, string> = {
  offline_access: 'apps.scopes.offline_access',
  email: 'apps.scopes.email',
  profile: 'apps.scopes.profile',
  account: 'apps.scopes.account',
  vpn: 'apps.scopes.vpn',
};

export function ScopeList({ scopes }: { scopes: readonly string[] }) {
  const { t } = useTranslation();
  const shown = scopes.filter((scope) => scope in SCOPE_KEYS);
  return (
    <ul className="flex flex-col gap-2 text-sm text-slate-700" data-testid="scope-list">
      <li className="flex gap-2">
        <span aria-hidden="true">✓</span>
        {t('apps.scopes.openid')}
      </li>
      {shown.map((scope) => (
        <li key={scope} className="flex gap-2">
          <span aria-hidden="true">✓</span>
          {t(SCOPE_KEYS[scope] ?? '')}
        </li>
      ))}
    </ul>
  );
}
