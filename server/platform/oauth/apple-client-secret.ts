import { createPrivateKey, sign } from 'node:crypto';

/** Apple's token endpoint wants this audience, whichever host a test points the issuer at. */
export const APPLE_AUDIENCE = 'https://appleid.apple.com';

/** Apple allows up to six months; a secret made per exchange needs only minutes. */
const LIFETIME_SECONDS = 5 * 60;

export interface AppleSigningKey {
  teamId: string;
  /** The Services ID. */
  clientId: string;
  keyId: string;
  /** PKCS#8 PEM of the P-256 key downloaded from the Apple developer account. */
  privateKey: string;
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Sign in with Apple has no static client secret: the secret is an ES256 JWT signed with
 * the team's key (Apple's "Creating a client secret"). JOSE wants the raw r||s signature,
 * not the DER that node:crypto produces by default.
 */
export function appleClientSecret(key: AppleSigningKey, now = Date.now()): string {
  const issuedAt = Math.floor(now / 1000);
  const header = base64url({ alg: 'ES256', kid: key.keyId, typ: 'JWT' });
  const payload = base64url({
    iss: key.teamId,
    iat: issuedAt,
    exp: issuedAt + LIFETIME_SECONDS,
    aud: APPLE_AUDIENCE,
    sub: key.clientId,
  });
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`), {
    key: createPrivateKey(key.privateKey),
    dsaEncoding: 'ieee-p1363',
  });
  return `${header}.${payload}.${signature.toString('base64url')}`;
}

/** True for the PEM of a P-256 private key, the only kind Apple issues (a .p8 file). */
export function isApplePrivateKey(pem: string): boolean {
  try {
    return createPrivateKey(pem).asymmetricKeyDetails?.namedCurve === 'prime256v1';
  } catch {
    return false;
  }
}
