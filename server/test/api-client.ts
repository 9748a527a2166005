import {
  type Endpoint,
  type EndpointInput,
  endpointUrl,
  type ResponseOf,
} from '#shared/contracts/endpoint.ts';
import type { App } from '../http/types.ts';

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
  /** The new session cookie the answer set, as a `cookie` header value. */
  cookie: string | undefined;
  /** True when the answer cleared the session cookie. */
  clearedCookie: boolean;
  headers: Record<string, unknown>;
  text: string;
}

export interface CallOptions {
  body?: unknown;
  cookie?: string | undefined;
  headers?: Record<string, string>;
  ip?: string;
  /** A multipart body (the browser's FormData), sent as the browser would encode it. */
  form?: FormData;
}

/**
 * Calls the app in-process as the browser does (CSRF header, cookie, user agent). Each call
 * comes from its own address unless told otherwise, so that the per-IP limits of one test do
 * not spill into the next; per-account limits are tested on purpose.
 */
export function apiClient(app: App) {
  let calls = 0;

  return async function call(
    method: 'GET' | 'POST',
    url: string,
    options: CallOptions = {},
  ): Promise<ApiAnswer> {
    calls += 1;
    let payload = options.body as Record<string, unknown> | Buffer | undefined;
    const headers: Record<string, string> = {
      'x-requested-with': 'fetch',
      'user-agent': 'vitest-agent',
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...options.headers,
    };
    if (options.form) {
      const encoded = new Request('http://localhost/', { method: 'POST', body: options.form });
      payload = Buffer.from(await encoded.arrayBuffer());
      headers['content-type'] = encoded.headers.get('content-type') ?? '';
    }
    const response = await app.inject({
      method,
      url,
      remoteAddress: options.ip ?? `10.${calls % 250}.${Math.floor(calls / 250) % 250}.7`,
      payload,
      headers,
    });
    const sid = response.cookies.find((c) => c.name === 'sid');
    const json = (response.headers['content-type'] ?? '').toString().includes('json');
    return {
      status: response.statusCode,
      body: json && response.body ? response.json() : {},
      cookie: sid?.value ? `sid=${sid.value}` : undefined,
      clearedCookie: sid !== undefined && sid.value === '',
      headers: response.headers,
      text: response.body,
    };
  };
}

export type ApiCall = ReturnType<typeof apiClient>;

/** A call of a declared endpoint: its input as the browser sends it, and who sends it. */
export type EndpointCall<E extends Endpoint> = EndpointInput<E> & {
  cookie?: string | undefined;
  ip?: string;
  headers?: Record<string, string>;
};

export interface EndpointAnswer<E extends Endpoint> extends ApiAnswer {
  /** The success answer, typed by the declaration (check `status` first). */
  data: ResponseOf<E>;
}

/**
 * Calls declared endpoints (shared/contracts) the way the browser's client does: path,
 * method and parameters come from the declaration, so a test never restates a URL.
 */
export function endpointClient(app: App) {
  const call = apiClient(app);
  return async function callEndpoint<E extends Endpoint>(
    endpoint: E,
    input: EndpointCall<E> = {} as EndpointCall<E>,
  ): Promise<EndpointAnswer<E>> {
    const { body, query, params, cookie, ip, headers } = input as EndpointCall<Endpoint> & {
      body?: unknown;
      query?: Record<string, unknown>;
      params?: Record<string, string>;
    };
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) search.append(name, String(value));
    }
    const path = endpointUrl(endpoint.url, params);
    const url = search.size > 0 ? `${path}?${search}` : path;
    const answer = await call(endpoint.method, url, {
      body,
      cookie,
      headers,
      ...(ip ? { ip } : {}),
    });
    return { ...answer, data: answer.body as ResponseOf<E> };
  };
}

export type EndpointCaller = ReturnType<typeof endpointClient>;
