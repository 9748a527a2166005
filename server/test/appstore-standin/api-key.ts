import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { verifyJws } from './jws.ts';

// An App Store Server API key as App Store Connect issues one (a P-256 key in a .p8 file, its
// key id and the team's issuer id), and the check Apple makes of the bearer token signed with
// it: ES256, kid = key id, iss = issuer id, aud appstoreconnect-v1, bid = the bundle id, not
// expired.

export interface ApiKey {
  issuerId: string;
  keyId: string;
  /** PKCS#8 PEM, the .p8 file. */
  privateKeyPem: string;
  publicKeyPem: string;
}

export function createApiKey(): ApiKey {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    issuerId: randomUUID(),
    keyId: randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase(),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** Why the `Authorization` header is refused, or null when Apple would take it. */
export function bearerRefusal(
  authorization: string | undefined,
  key: ApiKey,
  bundleId: string,
  now = Date.now(),
): string | null {
  const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
  if (!token) return 'no bearer token';
  const decoded = verifyJws(token, key.publicKeyPem);
  if (!decoded) return 'bad signature';
  const { header, payload } = decoded;
  if (header.kid !== key.keyId) return 'unknown key id';
  if (payload.iss !== key.issuerId) return 'wrong issuer';
  if (payload.aud !== 'appstoreconnect-v1') return 'wrong audience';
  if (payload.bid !== bundleId) return 'wrong bundle id';
  if (typeof payload.exp !== 'number' || payload.exp * 1000 < now) return 'expired';
  return null;
}
