import type { z } from 'zod';
import { type ErrorEnvelope, errorEnvelope } from '#shared/contracts/errors.ts';
import {
  type EnrollRequest,
  type EnrollResponse,
  NODE_MESSAGES,
  nodeEndpoints,
  type PeersResponse,
  type ReportRequest,
  type ReportResponse,
} from '#shared/contracts/vpn-node.ts';

// The node API (shared/contracts/vpn-node.ts) over fetch, with the bearer token on every
// call. Every failure becomes a NodeApiError whose `failure` says what the agent should do
// about it, so the loops decide on a word, not on status codes.

/**
 * - `unavailable`: no answer, a timeout, a 5xx or an answer that is not the contract's: try
 *   again with backoff.
 * - `unauthorized`: the token was rotated or removed; only the operator can fix it.
 * - `forbidden`: the token is refused here (enroll: the server was retired).
 * - `key-mismatch`: the server has another machine's key (enroll).
 * - `rate-limited`: 429, with the wait the API asked for.
 * - `rejected`: any other 4xx: the API refuses this request as it is.
 */
export type ApiFailure =
  | 'unavailable'
  | 'unauthorized'
  | 'forbidden'
  | 'key-mismatch'
  | 'rate-limited'
  | 'rejected';

export class NodeApiError extends Error {
  constructor(
    readonly failure: ApiFailure,
    message: string,
    /** 429: how long the API asked us to wait. */
    readonly retryAfterMs?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export interface NodeApiOptions {
  /** The API's origin, e.g. https://vpn.example.com (no trailing slash). */
  baseUrl: string;
  token: string;
  /** How long an answer may take, on top of a long poll's own wait. */
  timeoutMs?: number;
}

/** `Retry-After` in seconds or as an HTTP date. */
export function retryAfterMs(header: string | null, nowMs = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

export class NodeApiClient {
  private readonly timeoutMs: number;

  constructor(private readonly options: NodeApiOptions) {
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  enroll(body: EnrollRequest, signal?: AbortSignal): Promise<EnrollResponse> {
    const { method, url, response } = nodeEndpoints.enroll;
    return this.call(method, url, response, { body, timeoutMs: this.timeoutMs, signal });
  }

  /**
   * The peers past `version` (none: the whole set at once). The API holds the answer up to
   * `waitMs` when nothing changed, so the timeout starts after that.
   */
  peers(version: number | undefined, waitMs: number, signal?: AbortSignal): Promise<PeersResponse> {
    const { method, url, response } = nodeEndpoints.peers;
    const path = version === undefined ? url : `${url}?version=${version}`;
    return this.call(method, path, response, { timeoutMs: waitMs + this.timeoutMs, signal });
  }

  report(body: ReportRequest, signal?: AbortSignal): Promise<ReportResponse> {
    const { method, url, response } = nodeEndpoints.report;
    return this.call(method, url, response, { body, timeoutMs: this.timeoutMs, signal });
  }

  private async call<T>(
    method: 'GET' | 'POST',
    path: string,
    schema: z.ZodType<T>,
    request: { body?: unknown; timeoutMs: number; signal?: AbortSignal | undefined },
  ): Promise<T> {
    const timeout = AbortSignal.timeout(request.timeoutMs);
    const url = `${this.options.baseUrl}${path}`;
    let answer: Response;
    let text: string;
    try {
      answer = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.options.token}`,
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: request.body === undefined ? null : JSON.stringify(request.body),
        // The node API never redirects: following one could hand the token to another host.
        redirect: 'error',
        signal: request.signal ? AbortSignal.any([timeout, request.signal]) : timeout,
      });
      text = await answer.text();
    } catch (error) {
      throw new NodeApiError('unavailable', `${method} ${path}: no answer`, undefined, {
        cause: error,
      });
    }
    if (answer.ok) {
      const parsed = safeJson(text);
      const result = schema.safeParse(parsed);
      if (result.success) return result.data;
      throw new NodeApiError('unavailable', `${method} ${path}: an answer not of the contract`);
    }
    throw failureOf(method, path, answer, text);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function failureOf(method: string, path: string, answer: Response, text: string): NodeApiError {
  const parsed = errorEnvelope.safeParse(safeJson(text));
  const envelope: Partial<ErrorEnvelope> = parsed.success ? parsed.data : {};
  const info = envelope.errors_info ?? [];
  const fields = envelope.errors_validation && JSON.stringify(envelope.errors_validation);
  const said = [answer.status, envelope.code, ...info, fields].filter(Boolean).join(' ');
  const message = `${method} ${path}: ${said}`;
  const { status } = answer;
  if (status === 401) return new NodeApiError('unauthorized', message);
  if (status === 403) return new NodeApiError('forbidden', message);
  if (status === 409 && info.includes(NODE_MESSAGES.keyMismatch)) {
    return new NodeApiError('key-mismatch', message);
  }
  if (status === 429) {
    return new NodeApiError(
      'rate-limited',
      message,
      retryAfterMs(answer.headers.get('retry-after')),
    );
  }
  if (status >= 500 || status === 408) return new NodeApiError('unavailable', message);
  return new NodeApiError('rejected', message);
}
