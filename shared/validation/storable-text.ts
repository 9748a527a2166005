// Text PostgreSQL cannot take as it is: a NUL (refused in text and in JSON, so a 500), or a
// lone surrogate (not Unicode: refused inside JSON, silently replaced in text columns). One
// rule for the API's inputs (server/http/validator-compiler.ts) and for what an e-mailed
// challenge decodes to (shared/challenge.ts).

const NUL = '\u0000';
/** With the `u` flag a pair is one code point, so only a lone surrogate matches. */
const LONE_SURROGATE = /\p{Cs}/u;

export function isStorableText(text: string): boolean {
  return !text.includes(NUL) && !LONE_SURROGATE.test(text);
}
