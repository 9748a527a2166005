import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SiteRender, SiteRendered } from '#shared/contracts/site.ts';

// The one door between the server and the app's code (DESIGN "Public pages rendered on the
// server keep the rooms apart"): the app's server entry, built by Vite (`npm run build`), is
// loaded from disk by its path and called with the data the server read. No server module
// imports app source.

/** Where the rendered parts go in the built page template (app/site.html). */
const HEAD = '<!--site-head-->';
const BODY = '<!--site-body-->';
const DATA = '<!--site-data-->';

/** Without a built app (tests, an API-only start): the page, its styles and data, no script. */
const BARE_TEMPLATE = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><meta name="viewport" content="width=device-width, initial-scale=1.0" />${HEAD}</head><body><div id="root">${BODY}</div>${DATA}</body></html>`;

export async function loadSiteRender(entry: string): Promise<SiteRender | undefined> {
  try {
    const module = (await import(pathToFileURL(resolve(entry)).href)) as { render?: SiteRender };
    return typeof module.render === 'function' ? module.render : undefined;
  } catch {
    return undefined;
  }
}

export async function loadSiteTemplate(webDistDir: string): Promise<string> {
  const built = await readFile(resolve(webDistDir, 'site.html'), 'utf8').catch(() => undefined);
  return built?.includes(BODY) ? built : BARE_TEMPLATE;
}

/** The whole document: the template with the page's head, markup and hydration data. */
export function composeDocument(
  template: string,
  lang: string,
  rendered: SiteRendered,
  appConfig: string,
): string {
  return template
    .replace(/<html lang="[a-z-]*"/i, `<html lang="${lang}"`)
    .replace(HEAD, () => rendered.head + appConfig)
    .replace(BODY, () => rendered.body)
    .replace(
      DATA,
      () => `<script type="application/json" id="site-data">${rendered.data}</script>`,
    );
}
