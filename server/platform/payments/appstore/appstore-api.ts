import {
  APIException,
  AppStoreServerAPIClient,
  Environment,
} from '@apple/app-store-server-library';
import type { AppStoreSettings } from '#shared/billing/gateway-settings.ts';
import { GatewayRequestError, GatewayUnavailable } from '../gateway.ts';

// The App Store Server API through Apple's own client: it signs each request with our API
// key (an ES256 bearer token: iss = issuer id, aud appstoreconnect-v1, bid = bundle id) and
// checks each answer's shape. We only swap its transport.

const APPLE_HOSTS = {
  Production: 'https://api.storekit.apple.com',
  Sandbox: 'https://api.storekit-sandbox.apple.com',
} as const;

/** A read that outlasts this answers "unavailable", so a webhook is retried, not held open. */
const REQUEST_TIMEOUT_MS = 15_000;

type FetchAnswer = Awaited<ReturnType<AppStoreServerAPIClient['makeFetchRequest']>>;

/**
 * The library picks its host from the environment alone and calls it through node-fetch with
 * no time limit. `makeFetchRequest` is its protected seam (Apple's own tests override it the
 * same way): here it sends the request the library built, path, query, headers and body
 * untouched, to `apiUrl` when set (a stand-in, or a regional host), else to Apple's host for
 * the environment, with Node's fetch and a timeout. Node's Response has everything the
 * library reads of node-fetch's (ok, status, json()).
 */
export class AppStoreApi extends AppStoreServerAPIClient {
  readonly #baseUrl: string;

  constructor(settings: AppStoreSettings) {
    super(
      settings.privateKey,
      settings.keyId,
      settings.issuerId,
      settings.bundleId,
      settings.environment === 'Production' ? Environment.PRODUCTION : Environment.SANDBOX,
    );
    this.#baseUrl = (settings.apiUrl ?? APPLE_HOSTS[settings.environment]).replace(/\/+$/, '');
  }

  protected override async makeFetchRequest(
    path: string,
    query: URLSearchParams,
    method: string,
    body: string | Buffer | undefined,
    headers: Record<string, string>,
  ): Promise<FetchAnswer> {
    const search = query.toString();
    const response = await fetch(`${this.#baseUrl}${path}${search ? `?${search}` : ''}`, {
      method,
      body,
      headers,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return response as unknown as FetchAnswer;
  }
}

/** Apple's "no such transaction": a 400 for an id it cannot have issued. */
const MALFORMED_ID_CODES = new Set([4000006, 4000008]);
/** 404s Apple says to retry: the account, app or transaction is not visible to it yet. */
const RETRYABLE_NOT_FOUND_CODES = new Set([4040002, 4040004, 4040006]);

/**
 * One call to the App Store Server API with its failures in our terms: an unknown id is
 * not_found; our key refused, throttling, Apple's errors and the network are unavailable
 * (retry later: a webhook then answers 5xx and Apple sends it again); any other refusal is
 * the request's fault. Messages carry Apple's status and error code, never the key.
 */
export async function callApple<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof APIException)) {
      throw new GatewayUnavailable(`App Store ${what}: no answer`, { cause: error });
    }
    const status = error.httpStatusCode;
    const code = error.apiError ?? 'none';
    const retryable = RETRYABLE_NOT_FOUND_CODES.has(Number(error.apiError));
    if (!retryable && (status === 404 || MALFORMED_ID_CODES.has(Number(error.apiError)))) {
      throw new GatewayRequestError('not_found', `App Store ${what}: not found (${code})`);
    }
    if (retryable || status === 401 || status === 403 || status === 429 || status >= 500) {
      throw new GatewayUnavailable(`App Store ${what}: HTTP ${status} (${code})`);
    }
    throw new GatewayRequestError('invalid_request', `App Store ${what}: HTTP ${status} (${code})`);
  }
}
