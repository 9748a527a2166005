import { vi } from 'vitest';

export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** The frame's own call on every screen (the header's and footer's site links). */
const SITE_LINKS = '/api/public/v1/site/links';

/** The site's links as the server answers them for `lang` (the demo's addresses). */
export function testSiteLinks(lang: string) {
  const at = (path: string) => `/${lang}/${path}`;
  return {
    pricing: at('pricing'),
    features: at('features'),
    servers: at('servers'),
    download: at('download-vpn'),
    blog: at('blog'),
    what_is_vpn: at('what-is-a-vpn'),
    help_center: at('help-center'),
    terms: at('terms-of-service'),
    privacy: at('privacy-policy'),
  };
}

function siteLinks(request: Request): Response {
  const lang = new URL(request.url).searchParams.get('lang') ?? 'en';
  return jsonResponse(200, { links: testSiteLinks(lang) });
}

/**
 * A stand-in for the server at the network boundary: the page's fetch calls are answered by
 * path, and any other path fails the way an unreachable server does. Returns the requests
 * seen, in order, but the frame's site links (answered unless a test routes them itself).
 * Undo with vi.unstubAllGlobals().
 */
export function stubFetch(routes: Record<string, FetchHandler>): Request[] {
  const seen: Request[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    if (path === SITE_LINKS && !routes[path]) return siteLinks(request);
    seen.push(request);
    const handler = routes[path];
    if (!handler) throw new TypeError('Failed to fetch');
    return handler(request);
  });
  return seen;
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** The §5 error envelope the server answers a failure with. */
export function errorResponse(status: number, code: string): Response {
  return jsonResponse(status, { code, errors_validation: {}, errors_info: [] });
}
