import { vi } from 'vitest';

export type FetchHandler = (request: Request) => Response | Promise<Response>;

/**
 * A stand-in for the server at the network boundary: the page's fetch calls are answered by
 * path, and any other path fails the way an unreachable server does. Returns the requests
 * seen, in order. Undo with vi.unstubAllGlobals().
 */
export function stubFetch(routes: Record<string, FetchHandler>): Request[] {
  const seen: Request[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    seen.push(request);
    const handler = routes[new URL(request.url).pathname];
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
