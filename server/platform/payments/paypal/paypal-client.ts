import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import {
  ApiError,
  type ApiResponse,
  Client,
  Environment,
  PaymentsController,
  SubscriptionsController,
} from '@paypal/paypal-server-sdk';
import type { PayPalSettings } from '#shared/billing/gateway-settings.ts';
import { GatewayRequestError, GatewayUnavailable } from '../gateway.ts';

// PayPal's REST API through its official SDK, plus the one call the SDK lacks (catalog
// products), made over fetch with a token from the SDK's own OAuth manager.

const HOSTS = { live: 'https://api-m.paypal.com', sandbox: 'https://api-m.sandbox.paypal.com' };
const TIMEOUT_MS = 30_000;

export interface PayPalApi {
  subscriptions: SubscriptionsController;
  payments: PaymentsController;
  /** Where the API is: PayPal's host, or `apiUrl` (a stand-in). */
  origin: string;
  /** A call the SDK has no method for; answers the parsed JSON body. */
  rest<T>(method: 'GET' | 'POST', path: string, body?: unknown, requestId?: string): Promise<T>;
}

/**
 * The SDK builds its URLs from the environment alone (api-m.paypal.com or its sandbox), with
 * no base-URL option; to reach a stand-in, its connections are made to `apiUrl` instead, as a
 * hosts-file entry would, over TLS when `apiUrl` is https and plain TCP when it is http.
 */
class ConnectToApiUrl extends https.Agent {
  constructor(private readonly target: URL) {
    super({ keepAlive: true });
  }

  override createConnection(): net.Socket {
    const host = this.target.hostname;
    if (this.target.protocol === 'https:') {
      return tls.connect({ host, port: Number(this.target.port || 443), servername: host });
    }
    return net.connect({ host, port: Number(this.target.port || 80) });
  }
}

export function paypalApi(settings: PayPalSettings): PayPalApi {
  const target = settings.apiUrl ? new URL(settings.apiUrl) : null;
  const client = new Client({
    environment: settings.environment === 'live' ? Environment.Production : Environment.Sandbox,
    timeout: TIMEOUT_MS,
    clientCredentialsAuthCredentials: {
      oAuthClientId: settings.clientId,
      oAuthClientSecret: settings.clientSecret,
    },
    ...(target ? { httpClientOptions: { httpsAgent: new ConnectToApiUrl(target) } } : {}),
  });
  const origin = target ? target.origin : HOSTS[settings.environment];
  let token: { value: string; until: number } | null = null;
  const bearer = async () => {
    if (!token || token.until <= Date.now()) {
      const fresh = await sdk('token', async () => ({
        result: await client.clientCredentialsAuthManager.fetchToken(),
      }));
      const seconds = Number(fresh.expiresIn ?? 300n);
      // A minute early: a token must not lapse between our check and PayPal's.
      token = { value: fresh.accessToken, until: Date.now() + (seconds - 60) * 1000 };
    }
    return token.value;
  };
  return {
    subscriptions: new SubscriptionsController(client),
    payments: new PaymentsController(client),
    origin,
    async rest<T>(method: 'GET' | 'POST', path: string, body?: unknown, requestId?: string) {
      const authorization = `Bearer ${await bearer()}`;
      let response: Response;
      try {
        response = await fetch(`${origin}${path}`, {
          method,
          headers: {
            authorization,
            'content-type': 'application/json',
            ...(requestId ? { 'paypal-request-id': requestId } : {}),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        throw unavailable(error);
      }
      const text = await response.text();
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // A proxy's HTML error page: the status says enough.
        if (response.ok) throw new GatewayUnavailable(`PayPal ${method} ${path}: not JSON`);
      }
      if (!response.ok) throw refusal(`${method} ${path}`, response.status, parsed);
      return parsed as T;
    },
  };
}

interface PayPalErrorBody {
  name?: string;
  message?: string;
  debug_id?: string;
  details?: { issue?: string; description?: string }[];
}

/** PayPal's error name and first issue (e.g. `UNPROCESSABLE_ENTITY SUBSCRIPTION_STATUS_INVALID`). */
export function issueOf(body: unknown): string {
  const error = (body ?? {}) as PayPalErrorBody;
  return [error.name, error.details?.[0]?.issue].filter(Boolean).join(' ');
}

function refusal(what: string, status: number, body: unknown): Error {
  if (status >= 500 || status === 429 || status === 408) {
    return new GatewayUnavailable(`PayPal ${what}: HTTP ${status}`);
  }
  const error = (body ?? {}) as PayPalErrorBody;
  const words = `PayPal ${what}: ${issueOf(body) || `HTTP ${status}`}${
    error.debug_id ? ` (debug_id ${error.debug_id})` : ''
  }`;
  if (status === 404) return new GatewayRequestError('not_found', words);
  // 422 is PayPal's "not in this state" (SUBSCRIPTION_STATUS_INVALID, CAPTURE_FULLY_REFUNDED).
  if (status === 422) return new GatewayRequestError('invalid_state', words);
  return new GatewayRequestError('invalid_request', words);
}

function unavailable(error: unknown): GatewayUnavailable {
  const reason = error instanceof Error ? error.message : String(error);
  return new GatewayUnavailable(`PayPal unreachable: ${reason}`, { cause: error });
}

/** An SDK call's result, its failures in our terms (never with the request's secrets). */
export async function sdk<T>(
  what: string,
  work: () => Promise<Pick<ApiResponse<T>, 'result'>>,
): Promise<T> {
  try {
    return (await work()).result;
  } catch (error) {
    if (error instanceof ApiError) throw refusal(what, error.statusCode, error.result);
    throw unavailable(error);
  }
}
