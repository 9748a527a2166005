import { generateKeyPairSync, webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { APPLE_AUDIENCE, appleClientSecret } from './apple-client-secret.ts';

const pair = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
const { privateKey, publicKey } = pair();
const key = {
  teamId: 'TEAM123456',
  clientId: 'com.example.vpn.web',
  keyId: 'KEY1234567',
  privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
};

const decode = (part: string | undefined) =>
  JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));

/** Verifies as a JOSE library does: WebCrypto ECDSA takes the raw r||s signature. */
async function verifies(jwt: string, publicJwk: webcrypto.JsonWebKey): Promise<boolean> {
  const [header, payload, signature] = jwt.split('.');
  const verifier = await webcrypto.subtle.importKey(
    'jwk',
    publicJwk,
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['verify'],
  );
  return webcrypto.subtle.verify(
    { name: 'ECDSA', hash: 'SHA-256' },
    verifier,
    Buffer.from(signature ?? '', 'base64url'),
    Buffer.from(`${header}.${payload}`),
  );
}

describe('appleClientSecret', () => {
  it('is an ES256 JWT of the team for the Services ID, valid for minutes', async () => {
    const now = Date.UTC(2026, 10, 21, 12, 0, 0);
    const jwt = appleClientSecret(key, now);
    const [header, payload] = jwt.split('.');
    expect(decode(header)).toEqual({ alg: 'ES256', kid: 'KEY1234567', typ: 'JWT' });
    const claims = decode(payload);
    expect(claims).toEqual({
      iss: 'TEAM123456',
      sub: 'com.example.vpn.web',
      aud: APPLE_AUDIENCE,
      iat: now / 1000,
      exp: now / 1000 + 300,
    });
    expect(APPLE_AUDIENCE).toBe('https://appleid.apple.com');
    expect(await verifies(jwt, publicKey.export({ format: 'jwk' }))).toBe(true);
  });

  it('does not verify with another key', async () => {
    const jwt = appleClientSecret(key);
    expect(await verifies(jwt, pair().publicKey.export({ format: 'jwk' }))).toBe(false);
  });
});
