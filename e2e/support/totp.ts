import { createHmac } from 'node:crypto';

// RFC 6238 written out here, independent of the otpauth library the product uses, so a
// journey that passes proves the product speaks the standard, not just agrees with itself.
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = '';
  for (const char of clean) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8)
    bytes.push(Number.parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The six-digit code of `secret` (base32) for the 30-second step `offset` steps from now. */
export function totpCode(secret: string, offset = 0, now = Date.now()): string {
  const counter = Math.floor(now / 30_000) + offset;
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac('sha1', base32Decode(secret)).update(message).digest();
  const at = (digest[digest.length - 1] ?? 0) & 0x0f;
  const value = (digest.readUInt32BE(at) & 0x7fffffff) % 1_000_000;
  return value.toString().padStart(6, '0');
}
