import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { isLang } from '#shared/locales.ts';
import { initI18n } from './i18n/i18n.ts';
import { AppConfigContext } from './lib/app-config-context.ts';
import { loadRuntimeConfig } from './lib/runtime-config.ts';
import { createRouter } from './router.tsx';
import './styles.css';

// §8 "A lazy screen that fails to load raises a preload error event": after a deploy the old
// chunk names are gone, so reload once to fetch the new ones (a second failure is shown).
window.addEventListener('vite:preloadError', (event) => {
  const key = 'preload-reload';
  if (sessionStorage.getItem(key)) return;
  sessionStorage.setItem(key, '1');
  event.preventDefault();
  window.location.reload();
});

async function start() {
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

start();
