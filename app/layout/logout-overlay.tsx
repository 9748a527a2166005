import { useTranslation } from 'react-i18next';
import { useSession } from '../session/session-store.ts';

/** §8 "You're being logged out..." over the whole page while signing out. */
export function LogoutOverlay() {
  const { t } = useTranslation();
  const visible = useSession((session) => session.logoutOverlay);
  if (!visible) return null;
  return (
    <div
      className="fixed inset-0 z-50 flex items-center justify-center bg-white/90"
      role="status"
      aria-live="assertive"
      data-testid="logout-overlay"
    >
      <div className="flex items-center gap-3 text-lg text-slate-700">
        <span className="size-5 animate-spin rounded-full border-2 border-brand-500 border-t-transparent" />
        {t('layout.logging_out')}
      </div>
    </div>
  );
}
