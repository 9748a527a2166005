import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useRouteError } from 'react-router';

const SAFE_PATH = '/en';

/**
 * §2/§8 "Any routing error sends the user to /en". If /en itself fails, going there again
 * would loop, so the page says so plainly; the English defaults show if the messages are
 * what failed to load.
 */
export function RoutingError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const location = useLocation();
  const navigate = useNavigate();
  const atSafePath = location.pathname === SAFE_PATH;

  useEffect(() => {
    console.error('Routing error', error);
    if (!atSafePath) void navigate(SAFE_PATH, { replace: true });
  }, [atSafePath, error, navigate]);

  if (!atSafePath) return null;
  return (
    <main className="mx-auto max-w-lg px-6 py-24 text-center" role="alert">
      <h1 className="text-2xl font-semibold text-slate-900">
        {t('layout.error_title', 'Something went wrong')}
      </h1>
      <p className="mt-3 text-slate-600">{t('layout.error_text', 'Please reload the page.')}</p>
      <button
        type="button"
        className="mt-6 rounded-lg bg-brand-600 px-4 py-2 text-white"
        onClick={() => window.location.reload()}
      >
        {t('layout.reload', 'Reload')}
      </button>
    </main>
  );
}
