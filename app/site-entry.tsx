import type { Root } from 'react-dom/client';
import { siteAddress } from '#shared/site/site-address.ts';
import './site/site.css';

// A public page's script (issue 23). The server sent the whole page; this script is small and
// does two things. It makes the page's few interactive parts live (site/island.tsx) once its
// content has painted, so React and the page's words never hold the first paint back on a
// slow phone. And
// a link into the app (sign-in, the order page, the account) starts the app in this document
// instead of loading a new one, as the app's own links do.

const container = document.getElementById('root');
const langs = readLangs();
let roots: Root[] = [];
let hydrating: Promise<void> | undefined;
let starting = false;

function readLangs(): string[] {
  try {
    const config = JSON.parse(document.getElementById('app-config')?.textContent ?? '{}') as {
      locales?: string[];
    };
    return config.locales ?? [];
  } catch {
    return [];
  }
}

/** The path of a same-origin link the site does not serve (the app's), if it is one. */
function appPath(anchor: HTMLAnchorElement | null): string | undefined {
  if (!anchor || anchor.target || anchor.hasAttribute('download')) return undefined;
  const url = new URL(anchor.href, window.location.href);
  if (url.origin !== window.location.origin || url.pathname.startsWith('/api/')) return undefined;
  if (/\.[a-z]+$/.test(url.pathname)) return undefined;
  if (siteAddress(url.pathname, url.searchParams, langs)) return undefined;
  return url.pathname + url.search + url.hash;
}

const anchorOf = (event: Event) =>
  (event.target instanceof Element ? event.target.closest('a') : null) as HTMLAnchorElement | null;

const loadApp = () => import('./start-app.tsx');

function hydrate(): Promise<void> {
  hydrating ??= import('./site/hydrate-site.tsx')
    .then(async ({ hydrateIslands }) => {
      if (container && !starting) roots = await hydrateIslands(container);
    })
    .catch((error: unknown) => console.error('The page could not be made interactive', error));
  return hydrating;
}

/** Starts the app on `path` where the page was: same document, no reload. */
async function startApp(path: string): Promise<void> {
  starting = true;
  const { startApp: start } = await loadApp();
  window.history.pushState(null, '', path);
  for (const root of roots) root.unmount();
  await start();
}

document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const path = appPath(anchorOf(event));
  if (!path || starting) return;
  event.preventDefault();
  startApp(path).catch(() => window.location.assign(path));
});

// Warm the app's code up when a visitor is about to follow one of its links.
const warm = (event: Event) => {
  if (appPath(anchorOf(event))) void loadApp();
};
document.addEventListener('pointerover', warm, { passive: true });
document.addEventListener('focusin', warm);
// A control used before the page is live (the search box, a vote) makes it live at once.
document.addEventListener('pointerdown', () => void hydrate(), { once: true, passive: true });
document.addEventListener('keydown', () => void hydrate(), { once: true });

/**
 * Once the page's main content is on screen (its largest paint), so the text never waits for
 * the script; at the latest after a few seconds, for a browser that reports no such paint.
 */
function afterContentPaint(run: () => void): void {
  const done = () => setTimeout(run, 0);
  if (!PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')) {
    window.addEventListener('load', done, { once: true });
    return;
  }
  const observer = new PerformanceObserver(() => {
    observer.disconnect();
    done();
  });
  observer.observe({ type: 'largest-contentful-paint', buffered: true });
  setTimeout(() => {
    observer.disconnect();
    run();
  }, 3_000);
}

afterContentPaint(() => void hydrate());
