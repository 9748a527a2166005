import {
  type Endpoint,
  type EndpointInput,
  endpointUrl,
  type ResponseOf,
} from '#shared/contracts/endpoint.ts';
import { ApiError, apiErrorFromBody } from './api-error.ts';

type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | readonly QueryValue[]>;
/** How to read a successful answer; `json` (the default) gives undefined for an empty body. */
export type ResponseKind = 'json' | 'text' | 'blob';

export interface RequestOptions {
  signal?: AbortSignal;
  /** Aborts the request after this many milliseconds with an ApiError code 'timeout' (§7). */
  timeoutMs?: number;
  responseType?: ResponseKind;
}
export interface GetOptions extends RequestOptions {
  query?: Query;
}
export interface UploadOptions {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
}

// The server refuses state-changing requests without this header (CSRF): a cross-site form
// cannot set it, and a cross-site script cannot send it without a CORS preflight we deny.
const BASE_HEADERS = { 'x-requested-with': 'fetch', accept: 'application/json' } as const;

export function withQuery(path: string, query: Query | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== null && item !== undefined) params.append(key, String(item));
    }
  }
  const search = params.toString();
  if (search === '') return path;
  return `${path}${path.includes('?') ? '&' : '?'}${search}`;
}

function combinedSignal(signal: AbortSignal | undefined, timeoutMs: number | undefined) {
  const signals = [signal, timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs)];
  const present = signals.filter((item): item is AbortSignal => item !== undefined);
  return present.length > 1 ? AbortSignal.any(present) : present[0];
}

async function readBody<T>(response: Response, kind: ResponseKind): Promise<T> {
  if (kind === 'blob') return (await response.blob()) as T;
  const text = await response.text();
  if (kind === 'text') return text as T;
  return parseJson<T>(response.status, text);
}

// A 2xx that is not JSON (say, a proxy's HTML page) is as useless as a failure.
function parseJson<T>(status: number, text: string): T {
  if (text === '') return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError(status, 'internal');
  }
}

async function request<T>(path: string, init: RequestInit, options: RequestOptions): Promise<T> {
  const signal = combinedSignal(options.signal, options.timeoutMs);
  let response: Response;
  try {
    response = await fetch(path, { ...init, credentials: 'same-origin', signal });
  } catch (error) {
    throw toTransportError(error, options.signal);
  }
  if (!response.ok) throw apiErrorFromBody(response.status, await response.text());
  return readBody<T>(response, options.responseType ?? 'json');
}

/** A cancelled request stays an AbortError (callers ignore it); anything else gets a code. */
function toTransportError(error: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return abortError(error);
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError') return new ApiError(0, 'timeout');
  return new ApiError(0, 'network');
}

function abortError(reason: unknown): unknown {
  const name = (reason as { name?: unknown } | null)?.name;
  return name === 'AbortError'
    ? reason
    : new DOMException('The request was aborted.', 'AbortError');
}

function upload<T>(path: string, body: FormData, options: UploadOptions = {}): Promise<T> {
  // fetch cannot report upload progress yet, so file uploads go through XMLHttpRequest.
  return new Promise<T>((resolve, reject) => {
    const { signal, onProgress, timeoutMs } = options;
    if (signal?.aborted) {
      reject(abortError(signal.reason));
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const settle = () => signal?.removeEventListener('abort', onAbort);
    xhr.open('POST', path);
    for (const [name, value] of Object.entries(BASE_HEADERS)) xhr.setRequestHeader(name, value);
    if (timeoutMs !== undefined) xhr.timeout = timeoutMs;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      settle();
      const text = xhr.responseText;
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(apiErrorFromBody(xhr.status, text));
        return;
      }
      onProgress?.(1);
      try {
        resolve(parseJson<T>(xhr.status, text));
      } catch (error) {
        reject(error);
      }
    };
    xhr.onerror = () => {
      settle();
      reject(new ApiError(0, 'network'));
    };
    xhr.ontimeout = () => {
      settle();
      reject(new ApiError(0, 'timeout'));
    };
    xhr.onabort = () => {
      settle();
      reject(abortError(signal?.reason));
    };
    signal?.addEventListener('abort', onAbort);
    xhr.send(body);
  });
}

/**
 * The app's one way to call the API (same origin, cookies sent). Answers are not validated
 * here; a caller that must trust a shape parses it with its contract.
 */
export const api = {
  get<T>(path: string, options: GetOptions = {}): Promise<T> {
    return request<T>(
      withQuery(path, options.query),
      { method: 'GET', headers: BASE_HEADERS },
      options,
    );
  },

  /** A plain object is sent as JSON, FormData as multipart; no body sends none. */
  post<T>(path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    const init: RequestInit = { method: 'POST', headers: BASE_HEADERS };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.headers = { ...BASE_HEADERS, 'content-type': 'application/json' };
      init.body = JSON.stringify(body);
    }
    return request<T>(path, init, options);
  },

  upload,
};

/**
 * An endpoint's method and URL, checked against its declaration's type. Code of the first
 * bundle calls through these: importing a declaration itself would bring zod with it. A
 * misspelt URL, or a declaration whose path changed, fails the type check.
 */
export interface EndpointRef<E extends Endpoint> {
  readonly method: E['method'];
  readonly url: E['url'];
  /** Carries the declaration's type only. */
  readonly declaration?: E;
}

export function endpointRef<E extends Endpoint>(ref: {
  method: E['method'];
  url: E['url'];
}): EndpointRef<E> {
  return ref;
}

type Target<E extends Endpoint> = E | EndpointRef<E>;
type CallArgs<E extends Endpoint> =
  Record<string, never> extends EndpointInput<E>
    ? [input?: EndpointInput<E>, options?: RequestOptions]
    : [input: EndpointInput<E>, options?: RequestOptions];

function urlOf(target: { url: string }, input: { params?: unknown } | undefined): string {
  return endpointUrl(target.url, input?.params as Record<string, string> | undefined);
}

/** Calls a declared endpoint (shared/contracts): input and answer typed by its schemas. */
export function call<E extends Endpoint>(
  target: Target<E>,
  ...[input, options]: CallArgs<E>
): Promise<ResponseOf<E>> {
  const url = urlOf(target, input);
  if (target.method === 'GET') {
    return api.get<ResponseOf<E>>(url, { ...options, query: input?.query as Query | undefined });
  }
  return api.post<ResponseOf<E>>(url, input?.body, options);
}

/** A declared endpoint that answers a file (`produces: 'text' | 'zip'`), read as a Blob to save. */
export function download<E extends Endpoint & { produces: 'text' | 'zip' }>(
  target: E,
  ...[input, options]: CallArgs<E>
): Promise<Blob> {
  const url = urlOf(target, input);
  return api.post<Blob>(url, input?.body, { ...options, responseType: 'blob' });
}

/** A declared multipart endpoint, sent as the browser's FormData with upload progress. */
export function uploadTo<E extends Endpoint & { multipart: true }>(
  target: E,
  form: FormData,
  options?: UploadOptions,
): Promise<ResponseOf<E>> {
  return upload<ResponseOf<E>>(target.url, form, options);
}
