import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

// The two signatures of the Pusher protocol, checked by the built-in server: a client's
// channel authorisation and the HTTP events API request. Both are HMAC-SHA256 with the app
// secret, compared in constant time so a forger learns nothing from the answer's timing.

export interface AppCredentials {
  appId: string;
  key: string;
  secret: string;
}

const hmac = (secret: string, text: string) =>
  createHmac('sha256', secret).update(text, 'utf8').digest('hex');

export function safeEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  // Only the length is revealed, and the length of a hex SHA-256 is public.
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `key:signature` over `socket_id:channel_name[:channel_data]`. */
export function channelAuth(
  app: AppCredentials,
  socketId: string,
  channel: string,
  channelData?: string,
): string {
  const signed = [socketId, channel, ...(channelData === undefined ? [] : [channelData])];
  return `${app.key}:${hmac(app.secret, signed.join(':'))}`;
}

export function isValidChannelAuth(
  app: AppCredentials,
  auth: unknown,
  socketId: string,
  channel: string,
  channelData?: string,
): boolean {
  return (
    typeof auth === 'string' && safeEqual(auth, channelAuth(app, socketId, channel, channelData))
  );
}

/** How far a request's auth_timestamp may be from our clock (Pusher's own window). */
export const API_TIMESTAMP_WINDOW_S = 600;

export interface ApiRequest {
  method: string;
  /** The path as requested, e.g. `/apps/1/events`, without the query. */
  path: string;
  query: Record<string, unknown>;
  /** The body exactly as received, or undefined for a request without one. */
  body: string | undefined;
}

/**
 * Checks an HTTP API request signed as the `pusher` library signs it: auth_key,
 * auth_timestamp, auth_version 1.0, body_md5 of the raw body, and auth_signature over
 * `METHOD\npath\nsorted query` (every parameter but the signature, values not encoded).
 * Returns why a request is refused, or undefined when it stands.
 */
export function apiRequestProblem(
  app: AppCredentials,
  request: ApiRequest,
  nowS = Date.now() / 1000,
): string | undefined {
  const params = new Map<string, string>();
  for (const [name, value] of Object.entries(request.query)) {
    if (typeof value !== 'string') return `Invalid query parameter ${name}`;
    params.set(name, value);
  }
  if (params.get('auth_key') !== app.key) return 'Unknown auth_key';
  if (params.get('auth_version') !== '1.0') return 'auth_version must be 1.0';
  const timestamp = Number(params.get('auth_timestamp'));
  if (!Number.isInteger(timestamp) || Math.abs(nowS - timestamp) > API_TIMESTAMP_WINDOW_S) {
    return `Timestamp expired: given ${params.get('auth_timestamp')}, now ${Math.floor(nowS)}`;
  }
  if (request.body !== undefined && request.body !== '') {
    const md5 = createHash('md5').update(request.body, 'utf8').digest('hex');
    if (!safeEqual(params.get('body_md5') ?? '', md5)) return 'body_md5 does not match the body';
  }
  const signature = params.get('auth_signature') ?? '';
  params.delete('auth_signature');
  const query = [...params.keys()]
    .sort()
    .map((name) => `${name}=${params.get(name)}`)
    .join('&');
  const expected = hmac(app.secret, `${request.method.toUpperCase()}\n${request.path}\n${query}`);
  return safeEqual(signature, expected) ? undefined : 'Invalid signature';
}
