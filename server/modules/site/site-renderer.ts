import { createHash } from 'node:crypto';
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

/** Without a built app (tests, an API-only start): the page alone, no styles or script. */
const BARE_TEMPLATE = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><meta name="viewport" content="width=device-width, initial-scale=1.0" />${HEAD}</head><body><div id="root">${BODY}</div></body></html>`;

export async function loadSiteRender(entry: string): Promise<SiteRender | undefined> {
  try {
    const module = (await import(pathToFileURL(resolve(entry)).href)) as { render?: SiteRender };
    return typeof module.render === 'function' ? module.render : undefined;
  } catch {
    return undefined;
  }
}

export interface SiteTemplate {
  html: string;
  /** The CSP source that admits the page's one inline script (its loader), if it has one. */
  scriptHash: string | undefined;
}

/**
 * What starts a public page's script once its content has painted, so the script's request
 * and its work never hold the first paint back on a slow phone; at once when the visitor
 * touches the page, and a few seconds after `load` in a browser that reports no paint.
 */
function scriptLoader(src: string): string {
  return `(()=>{let d=0;const go=()=>{if(d)return;d=1;const s=document.createElement('script');s.type='module';s.src=${JSON.stringify(src)};document.head.append(s)};for(const e of['pointerdown','keydown','focusin'])addEventListener(e,go,{once:true,passive:true});if((PerformanceObserver.supportedEntryTypes||[]).includes('largest-contentful-paint')){new PerformanceObserver((l,o)=>{o.disconnect();setTimeout(go)}).observe({type:'largest-contentful-paint',buffered:true})}addEventListener('load',()=>setTimeout(go,3e3))})()`;
}

/**
 * The built page template (app/site.html) made ready to serve: its script started by a
 * loader instead of by the parser.
 */
export async function loadSiteTemplate(webDistDir: string): Promise<SiteTemplate> {
  const built = await readFile(resolve(webDistDir, 'site.html'), 'utf8').catch(() => undefined);
  if (!built?.includes(BODY)) return { html: BARE_TEMPLATE, scriptHash: undefined };
  let html = built;
  const script = /<script type="module"[^>]*src="(\/assets\/[^"]+\.js)"[^>]*><\/script>/.exec(html);
  if (!script?.[1]) return { html, scriptHash: undefined };
  const loader = scriptLoader(script[1]);
  html = html
    .replace(script[0], '')
    .replace(/<link rel="modulepreload"[^>]*>\s*/g, '')
    .replace('</body>', () => `<script>${loader}</script></body>`);
  const hash = createHash('sha256').update(loader).digest('base64');
  return { html, scriptHash: `'sha256-${hash}'` };
}

/** The whole document: the template with the page's head and markup. */
export function composeDocument(
  template: string,
  lang: string,
  rendered: SiteRendered,
  appConfig: string,
): string {
  return template
    .replace(/<html lang="[a-z-]*"/i, `<html lang="${lang}"`)
    .replace(HEAD, () => rendered.head + appConfig)
    .replace(BODY, () => rendered.body);
}
