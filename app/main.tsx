import { startApp } from './start-app.tsx';

// §8 "A lazy screen that fails to load raises a preload error event": after a deploy the old
// chunk names are gone, so reload once to fetch the new ones (a second failure is shown).
window.addEventListener('vite:preloadError', (event) => {
  const key = 'preload-reload';
  if (sessionStorage.getItem(key)) return;
  sessionStorage.setItem(key, '1');
  event.preventDefault();
  window.location.reload();
});

void startApp();
