import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { isLang } from '#shared/locales.ts';
import { initI18n } from './i18n/i18n.ts';
import { AppConfigContext } from './lib/app-config-context.ts';
import { loadRuntimeConfig } from './lib/runtime-config.ts';
import { createRouter } from './router.tsx';
// The app's full styles: also when it starts from a public page, which has only its own.
import './styles.css';

/** Starts the app on the current URL: on its own page, or from a public page's link. */
export async function startApp() {
  const config = await loadRuntimeConfig();
  const first = window.location.pathname.split('/')[1];
  const lang = isLang(first) && config.locales.includes(first) ? first : config.defaultLocale;
  document.documentElement.lang = lang;
  await initI18n(lang);
  const router = createRouter(config);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing');
  createRoot(root).render(
    <StrictMode>
      <AppConfigContext value={config}>
        <RouterProvider router={router} />
      </AppConfigContext>
    </StrictMode>,
  );
}
