import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';

// Compact ES256 JWS, written with node:crypto: Apple's signed data (x5c in the header) and the
// App Store Server API's bearer tokens are both this shape. ES256 signatures are the raw r‖s
// pair (IEEE P1363), not DER.

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

export function signJws(
  payload: object,
  privateKeyPem: string,
  header: Record<string, unknown> = {},
): string {
  const head = base64url(JSON.stringify({ alg: 'ES256', ...header }));
  const body = base64url(JSON.stringify(payload));
  const signature = sign('sha256', Buffer.from(`${head}.${body}`), {
    key: createPrivateKey(privateKeyPem),
    dsaEncoding: 'ieee-p1363',
  });
  return `${head}.${body}.${base64url(signature)}`;
}

export interface DecodedJws {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

/** The JWS's header and payload when its ES256 signature is `key`'s; null otherwise. */
export function verifyJws(token: string, key: KeyObject | string): DecodedJws | null {
  const [head, body, signature] = token.split('.');
  if (!head || !body || !signature) return null;
  try {
    const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'));
    if (header.alg !== 'ES256') return null;
    const ok = verify(
      'sha256',
      Buffer.from(`${head}.${body}`),
      { key: typeof key === 'string' ? createPublicKey(key) : key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
    if (!ok) return null;
    return { header, payload: JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) };
  } catch {
    return null;
  }
}

/** A JWS's payload, unverified: for tests that forge or tamper with one. */
export function jwsPayload<T = Record<string, unknown>>(token: string): T {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as T;
}
