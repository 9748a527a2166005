import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

// RFC 6238 with the parameters every authenticator app understands: SHA-1, six digits,
// thirty seconds. One step either side is accepted for clocks that drift.
const PERIOD = 30;
const WINDOW = 1;
const ISSUER = 'Shieldline VPN';

function totp(secret: string, label = ''): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

/** A new 160-bit secret in base32, the form authenticator apps accept typed in. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/**
 * The time step a code belongs to, or undefined when it matches none in the window. The
 * caller keeps the last step accepted, so that a code cannot be used twice.
 */
export function totpStep(secret: string, code: string, now = Date.now()): number | undefined {
  const delta = totp(secret).validate({ token: code, timestamp: now, window: WINDOW });
  if (delta === null) return undefined;
  return TOTP.counter({ period: PERIOD, timestamp: now }) + delta;
}

/** §7 get-qr: the otpauth:// URI as an SVG QR code, and the secret to type in by hand. */
export async function totpQr(
  secret: string,
  account: string,
): Promise<{ code: string; svg: string }> {
  const uri = totp(secret, account).toString();
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { code: secret, svg };
}
