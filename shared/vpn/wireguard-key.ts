// A WireGuard key as `wg` prints it: 32 bytes in standard base64, 44 characters with one `=`.
// The 43rd character carries the last 4 bits and two zero bits, so only every fourth letter
// of the alphabet may stand there; anything else is not the encoding of 32 bytes.
const KEY = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

/** The all-zero key: what an unset key reads as, never a real peer. */
const ZERO_KEY = `${'A'.repeat(43)}=`;

export function isWireGuardKey(value: string): boolean {
  return KEY.test(value) && value !== ZERO_KEY;
}

/** Standard base64 of bytes, in the browser and in Node alike. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The bytes of standard base64 text. */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
