import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

// A passkey authenticator in software, for tests: what a phone or a security key does in a
// WebAuthn ceremony, written from the specification (W3C WebAuthn L3 §6.1 authenticator
// data, §6.5 attestation, §6.3.3 assertion) rather than with the library under test. One
// P-256 key (ES256), `none` attestation, user present and verified; each part of what it
// answers can be bent (origin, RP id, flags, counter) to test that the server refuses it.
// Free of any test runner.

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;
/** COSE: key type EC2, algorithm ES256, curve P-256 (RFC 9053). */
const COSE_EC2 = 2;
const COSE_ES256 = -7;
const COSE_P256 = 1;

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

// --- The little CBOR (RFC 8949) a `none` attestation needs: maps, ints, bytes, text. -------

type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const out = Buffer.alloc(3);
    out[0] = (major << 5) | 25;
    out.writeUInt16BE(length, 1);
    return out;
  }
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}

export function encodeCbor(value: Cbor): Buffer {
  if (typeof value === 'number') {
    return value >= 0 ? head(0, value) : head(1, -1 - value);
  }
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const parts: Buffer[] = [head(5, value.size)];
  for (const [key, item] of value) parts.push(encodeCbor(key), encodeCbor(item));
  return Buffer.concat(parts);
}

// --- The authenticator ----------------------------------------------------------------------

/** The options an authenticator reads (the JSON the server's options endpoints answer). */
export interface CreationOptionsLike {
  challenge: string;
  rp: { id?: string | undefined };
  user: { id: string };
}
export interface RequestOptionsLike {
  challenge: string;
  rpId?: string | undefined;
}

/** What a test may bend in one answer; by default everything is as a browser sends it. */
export interface CeremonyOverrides {
  /** The page's origin the browser writes into clientDataJSON. */
  origin?: string;
  /** The RP id whose hash goes into authenticatorData. */
  rpId?: string;
  /** The challenge signed, instead of the options'. */
  challenge?: string;
  /** clientDataJSON's type (`webauthn.create` / `webauthn.get`). */
  type?: string;
  /** User verified (PIN or biometric); true by default. */
  userVerified?: boolean;
  /** The user handle an assertion names; the one registered by default. */
  userHandle?: string | null;
}

export class SoftwareAuthenticator {
  private readonly privateKey: KeyObject;
  private readonly publicKeyCose: Buffer;
  readonly credentialId: string;
  /** The signature counter; `counting: false` keeps it at 0, as synced passkeys do. */
  counter: number;
  private userHandle: string | undefined;

  constructor(
    /** The page's origin, e.g. `http://localhost:3000`. */
    readonly origin: string,
    private readonly options: { counting?: boolean } = {},
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    if (!jwk.x || !jwk.y) throw new Error('no EC public key');
    this.publicKeyCose = encodeCbor(
      new Map<number, Cbor>([
        [1, COSE_EC2],
        [3, COSE_ES256],
        [-1, COSE_P256],
        [-2, Buffer.from(jwk.x, 'base64url')],
        [-3, Buffer.from(jwk.y, 'base64url')],
      ]),
    );
    this.credentialId = b64url(randomBytes(32));
    this.counter = 0;
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
  }

  private authenticatorData(rpId: string, flags: number, attested: boolean): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter, 0);
    const parts: Uint8Array[] = [sha256(rpId), Buffer.from([flags]), counter];
    if (attested) {
      const id = Buffer.from(this.credentialId, 'base64url');
      const length = Buffer.alloc(2);
      length.writeUInt16BE(id.length, 0);
      // An all-zero AAGUID: the authenticator does not say what it is (`none` attestation).
      parts.push(Buffer.alloc(16), length, id, this.publicKeyCose);
    }
    return Buffer.concat(parts);
  }

  private flags(overrides: CeremonyOverrides): number {
    return FLAG_UP | (overrides.userVerified === false ? 0 : FLAG_UV);
  }

  private nextCounter(): void {
    if (this.options.counting !== false) this.counter += 1;
  }

  /** Makes the credential: the RegistrationResponseJSON a browser would send. */
  register(options: CreationOptionsLike, overrides: CeremonyOverrides = {}) {
    this.nextCounter();
    this.userHandle = options.user.id;
    const rpId = overrides.rpId ?? options.rp.id ?? new URL(this.origin).hostname;
    const authData = this.authenticatorData(rpId, this.flags(overrides) | FLAG_AT, true);
    const attestationObject = encodeCbor(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const clientDataJSON = this.clientData(
      overrides.type ?? 'webauthn.create',
      overrides.challenge ?? options.challenge,
      overrides.origin ?? this.origin,
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key' as const,
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
    };
  }

  /**
   * Signs the challenge: the AuthenticationResponseJSON a browser would send. The signature
   * is ES256 (DER) over authenticatorData and the SHA-256 of clientDataJSON.
   */
  authenticate(options: RequestOptionsLike, overrides: CeremonyOverrides = {}) {
    this.nextCounter();
    const rpId = overrides.rpId ?? options.rpId ?? new URL(this.origin).hostname;
    const authData = this.authenticatorData(rpId, this.flags(overrides), false);
    const clientDataJSON = this.clientData(
      overrides.type ?? 'webauthn.get',
      overrides.challenge ?? options.challenge,
      overrides.origin ?? this.origin,
    );
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      this.privateKey,
    );
    const userHandle = overrides.userHandle === undefined ? this.userHandle : overrides.userHandle;
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key' as const,
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(userHandle ? { userHandle } : {}),
      },
    };
  }
}

/** The same bytes with one bit flipped: a signature or data altered on the way. */
export function flipBit(base64url: string, byte = 8): string {
  const bytes = Buffer.from(base64url, 'base64url');
  const at = Math.min(byte, bytes.length - 1);
  bytes[at] = (bytes[at] ?? 0) ^ 0x01;
  return bytes.toString('base64url');
}
