import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import type { Lang } from '#shared/locales.ts';
import { recoveryCodesFile } from '#shared/two-factor/recovery-codes-file.ts';
import { users } from '../../../db/schema/index.ts';
import { apiClient } from '../../../test/api-client.ts';
import { createTestApp } from '../../../test/test-app.ts';
import { createUser, signIn, TEST_PASSWORD } from '../../../test/test-users.ts';
import { newRecoveryCode, RECOVERY_CODE_PATTERN } from './recovery-codes.ts';

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const { app } = await createTestApp();
const call = apiClient(app);
const TWO_FACTOR = '/api/account/v1/profile/two-factor-authentication';

describe('recovery code letters', () => {
  it('have the readable shape', () => {
    for (let i = 0; i < 200; i++) {
      const code = newRecoveryCode();
      expect(code).toMatch(/^[a-hj-km-np-z2-9]{5}-[a-hj-km-np-z2-9]{5}$/);
      expect(RECOVERY_CODE_PATTERN.test(code)).toBe(true);
    }
  });

  it('are drawn uniformly from the 31 letters (no modulo bias)', () => {
    const counts = new Map<string, number>();
    const codes = 10_000;
    for (let i = 0; i < codes; i++) {
      for (const char of newRecoveryCode().replace('-', '')) {
        counts.set(char, (counts.get(char) ?? 0) + 1);
      }
    }
    expect([...counts.keys()].sort().join('')).toBe([...ALPHABET].sort().join(''));
    // Pearson's chi-square over 30 degrees of freedom. Uniform draws stay below 80 but once
    // in about a million runs; `byte % 31` favours eight letters by 1/8 and scores ~280 here.
    const expected = (codes * 10) / ALPHABET.length;
    const chiSquare = [...counts.values()].reduce(
      (sum, seen) => sum + (seen - expected) ** 2 / expected,
      0,
    );
    expect(chiSquare).toBeLessThan(80);
  });
});

describe('the downloaded file', () => {
  async function withTwoFactor(locale: string) {
    const user = await createUser(app.db, { locale });
    const cookie = await signIn(call, user.email);
    await call('POST', `${TWO_FACTOR}/enable`, { cookie });
    const qr = await call('GET', `${TWO_FACTOR}/get-qr`, { cookie });
    const totp = new TOTP({ secret: Secret.fromBase32(String(qr.body.code)), period: 30 });
    const confirmed = await call('POST', `${TWO_FACTOR}/confirm`, {
      cookie,
      body: { code: totp.generate() },
    });
    expect(confirmed.status).toBe(200);
    return { user, cookie: confirmed.cookie ?? cookie };
  }

  const download = (cookie: string, body: Record<string, string> = {}) =>
    call('POST', `${TWO_FACTOR}/get-recovery-codes`, {
      cookie,
      body: { password: TEST_PASSWORD, ...body },
    });

  const header = (text: string) => text.split('\n\n')[0];
  const codesOf = (text: string) =>
    text.split('\n').filter((line) => /^[a-z2-9]{5}-[a-z2-9]{5}$/.test(line));

  it.each<[Lang, string]>([
    ['en', 'Shieldline VPN two-factor recovery codes'],
    ['es', 'Códigos de recuperación de la verificación en dos pasos de Shieldline VPN'],
    ['fr', 'Codes de récupération de la double authentification Shieldline VPN'],
    ['nl', 'Herstelcodes voor tweestapsverificatie van Shieldline VPN'],
    ['ru', 'Коды восстановления двухфакторной аутентификации Shieldline VPN'],
  ])('is headed in the account’s language (%s)', async (locale, title) => {
    const { cookie } = await withTwoFactor(locale);
    const file = await download(cookie);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(file.text.startsWith(`${title}\n`)).toBe(true);
    expect(header(file.text)?.split('\n')).toHaveLength(3);
    expect(codesOf(file.text)).toHaveLength(10);
    // The very file the browser saves for the first set (two-factor.test.tsx checks its side).
    expect(file.text).toBe(recoveryCodesFile(codesOf(file.text), locale));
  });

  it('follows the page’s language when it names one', async () => {
    const { user, cookie } = await withTwoFactor('ru');
    const file = await download(cookie, { locale: 'fr' });
    expect(file.text).toBe(recoveryCodesFile(codesOf(file.text), 'fr'));
    // The account keeps its own language; the file only followed the page.
    const [row] = await app.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.locale).toBe('ru');
    const bad = await download(cookie, { locale: 'de' });
    expect(bad.status).toBe(422);
  });
});
