import { describe, expect, it } from 'vitest';
import { decodeChallenge, encodeChallenge } from './challenge.ts';

describe('e-mailed challenges', () => {
  it('round-trip the address, the token and the logout flag', () => {
    const challenge = { email: 'ann@example.com', token: 'x'.repeat(43), force_logout: true };
    expect(decodeChallenge(encodeChallenge(challenge))).toEqual(challenge);
  });

  it('are broken when they are not base64url JSON of an object of the right types', () => {
    for (const raw of ['', '%%%', encodeChallenge([] as never), btoa('{"email":1}')]) {
      expect(decodeChallenge(raw), raw).toBeUndefined();
    }
  });

  it('are broken when they hold text the database cannot store', () => {
    const escaped = (json: string) =>
      btoa(json).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(decodeChallenge(encodeChallenge({ email: 'a\u0000@example.com' }))).toBeUndefined();
    expect(decodeChallenge(encodeChallenge({ token: 'to\u0000ken' }))).toBeUndefined();
    // A lone surrogate arrives as a JSON escape: UTF-8 itself cannot carry one.
    expect(decodeChallenge(escaped('{"email":"a\\ud800@example.com"}'))).toBeUndefined();
  });
});
